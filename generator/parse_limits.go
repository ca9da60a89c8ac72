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
)

// tooBig reports a file over MaxContractBytes.
func (y *yamlDoc) tooBig(data []byte) bool {
	if len(data) <= MaxContractBytes {
		return false
	}
	y.d.errorf(Pos{File: y.path, Line: 1, Col: 1}, "the file is %d bytes; a contract file holds at most %d (2 MiB)", len(data), MaxContractBytes)
	return true
}

// tooDeep reports tokens that nest deeper than MaxContractNesting, at the
// token where they do.
func (y *yamlDoc) tooDeep(tokens token.Tokens) bool {
	tk := deepToken(tokens)
	if tk == nil {
		return false
	}
	p := Pos{File: y.path, Line: 1, Col: 1}
	if tk.Position != nil {
		p = y.clamp(Pos{File: y.path, Line: tk.Position.Line, Col: tk.Position.Column})
	}
	y.d.errorf(p, "mappings and lists nest deeper than %d levels here; a contract needs a few", MaxContractNesting)
	return true
}

// deepToken follows the nesting the parser will build from tokens: flow
// brackets, and block levels by the column of each "- " entry, "? " key and
// key before a ':'. It returns the first token past MaxContractNesting.
func deepToken(tokens token.Tokens) *token.Token {
	flow := 0
	var cols []int
	for i, tk := range tokens {
		switch tk.Type {
		case token.SequenceStartType, token.MappingStartType:
			flow++
		case token.SequenceEndType, token.MappingEndType:
			flow = max(0, flow-1)
		case token.SequenceEntryType, token.MappingKeyType:
			cols = blockLevel(cols, flow, tk)
		case token.MappingValueType:
			if i > 0 {
				cols = blockLevel(cols, flow, tokens[i-1])
			}
		}
		if len(cols)+flow > MaxContractNesting {
			return tk
		}
	}
	return nil
}

// blockLevel opens the block level starting at tk's column, closing those at
// or right of it; inside a flow collection there are no block levels.
func blockLevel(cols []int, flow int, tk *token.Token) []int {
	if flow > 0 || tk.Position == nil {
		return cols
	}
	c := tk.Position.Column
	for len(cols) > 0 && cols[len(cols)-1] >= c {
		cols = cols[:len(cols)-1]
	}
	return append(cols, c)
}
