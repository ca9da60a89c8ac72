package generator

import (
	"github.com/goccy/go-yaml/token"
)

// Limits of one contract file (YAML or .avsc), checked before the YAML
// parser builds anything: goccy/go-yaml's parser takes time and memory that
// grow with the square of the nesting depth (200,000 nested brackets, 400
// KB, took over 20 GB), while its lexer is linear.
const (
	// MaxContractBytes is the largest contract file Generate, Vet and
	// AsyncAPI read: 2 MiB (a contract of a thousand messages is a few
	// hundred KB).
	MaxContractBytes = 2 << 20
	// MaxContractNesting is the deepest nesting of mappings and lists in a
	// contract file, block and flow together: 64 levels (a contract needs
	// about 10).
	MaxContractNesting = 64
	// MaxMappingKeys is the most keys one block mapping of a contract file
	// holds: 10,000 (the parser's time grows with their square; flow
	// mappings and lists, such as an enum's symbols, have no such limit).
	MaxMappingKeys = 10000
)

// tooBig reports a file over MaxContractBytes.
func (y *yamlDoc) tooBig(data []byte) bool {
	if len(data) <= MaxContractBytes {
		return false
	}
	y.d.errorf(Pos{File: y.path, Line: 1, Col: 1}, "the file is %d bytes; a contract file holds at most %d (2 MiB)", len(data), MaxContractBytes)
	return true
}

// tooDeep reports tokens that nest deeper than MaxContractNesting, or hold a
// block mapping of more than MaxMappingKeys keys, at the token where they do.
func (y *yamlDoc) tooDeep(tokens token.Tokens) bool {
	tk, keys := limitToken(tokens)
	if tk == nil {
		return false
	}
	p := Pos{File: y.path, Line: 1, Col: 1}
	if tk.Position != nil {
		p = y.clamp(Pos{File: y.path, Line: tk.Position.Line, Col: tk.Position.Column})
	}
	if keys {
		y.d.errorf(p, "a mapping holds more than %d keys here; split the contract", MaxMappingKeys)
	} else {
		y.d.errorf(p, "mappings and lists nest deeper than %d levels here; a contract needs a few", MaxContractNesting)
	}
	return true
}

// blockLevel is one open block mapping or list: the column of its keys or
// "- " entries and how many keys it has.
type blockLevel struct{ col, keys int }

// limitToken follows the nesting the parser will build from tokens: flow
// brackets, and block levels by the column of each "- " entry, "? " key and
// key before a ':'. It returns the first token past MaxContractNesting, or
// past MaxMappingKeys keys of one block mapping (keys is true then).
func limitToken(tokens token.Tokens) (tk *token.Token, keys bool) {
	flow := 0
	var levels []blockLevel
	for i, tk := range tokens {
		switch tk.Type {
		case token.SequenceStartType, token.MappingStartType:
			flow++
		case token.SequenceEndType, token.MappingEndType:
			flow = max(0, flow-1)
		case token.SequenceEntryType, token.MappingKeyType:
			levels = openLevel(levels, flow, tk, false)
		case token.MappingValueType:
			if i > 0 {
				levels = openLevel(levels, flow, tokens[i-1], true)
			}
		}
		if len(levels) > 0 && levels[len(levels)-1].keys > MaxMappingKeys {
			return tk, true
		}
		if len(levels)+flow > MaxContractNesting {
			return tk, false
		}
	}
	return nil, false
}

// openLevel closes the block levels right of tk's column and opens (or
// continues, counting a key) the one at it; inside a flow collection there
// are no block levels.
func openLevel(levels []blockLevel, flow int, tk *token.Token, key bool) []blockLevel {
	if flow > 0 || tk.Position == nil {
		return levels
	}
	c := tk.Position.Column
	for len(levels) > 0 && levels[len(levels)-1].col > c {
		levels = levels[:len(levels)-1]
	}
	if len(levels) == 0 || levels[len(levels)-1].col < c {
		levels = append(levels, blockLevel{col: c})
	}
	if key {
		levels[len(levels)-1].keys++
	}
	return levels
}
