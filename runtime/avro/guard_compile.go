package avro

import (
	hamba "github.com/hamba/avro/v2"
)

// gkind is what the walk does at one node of a compiled schema.
type gkind uint8

const (
	gNone   gkind = iota // null: no bytes
	gSkip                // n fixed bytes: boolean, float, double, fixed
	gLong                // a varint: int, long, and their logical types
	gLen                 // a varint length, then that many bytes: string, bytes
	gEnum                // a varint index below n
	gRecord              // kids in order
	gUnion               // a varint index, then that kid
	gArray               // blocks of kids[0]
	gMap                 // blocks of string key and kids[0]
)

// gop is one step of the guard walk, held by value so that a record's
// fields sit side by side in memory.
type gop struct {
	kind gkind
	n    int    // gSkip: bytes; gEnum: symbols
	sub  *gnode // gRecord: the record; gUnion: its branches; gArray, gMap: the item
}

// gnode is a schema compiled for the guard walk. A record's fields, an
// array's item and a map's value are sequences of steps in which a record
// that is not a reference is spliced in field by field; a named record is
// compiled once, so a recursive schema is a cycle through a gRecord step.
type gnode struct {
	seq  []gop   // record fields; array item; map value
	alts [][]gop // union branches
}

// compile turns s into a walk; named holds the records compiled so far.
func compile(s hamba.Schema, named map[string]*gnode) *gnode {
	return &gnode{seq: compileSeq(s, named)}
}

// compileSeq compiles one value as a sequence: an inline record's fields, or
// the single step of anything else (a reference included, so that a cycle
// stays a pointer).
func compileSeq(s hamba.Schema, named map[string]*gnode) []gop {
	if r, ok := s.(*hamba.RecordSchema); ok {
		if _, seen := named[r.FullName()]; !seen {
			return compileRecord(r, named).seq
		}
	}
	return []gop{compileOp(s, named)}
}

func compileOp(s hamba.Schema, named map[string]*gnode) gop {
	switch s := s.(type) {
	case *hamba.RefSchema:
		return compileOp(s.Schema(), named)
	case *hamba.RecordSchema:
		return gop{kind: gRecord, sub: compileRecord(s, named)}
	case *hamba.UnionSchema:
		return gop{kind: gUnion, sub: compileUnion(s, named)}
	case *hamba.ArraySchema:
		return gop{kind: gArray, sub: &gnode{seq: compileSeq(s.Items(), named)}}
	case *hamba.MapSchema:
		return gop{kind: gMap, sub: &gnode{seq: compileSeq(s.Values(), named)}}
	case *hamba.EnumSchema:
		return gop{kind: gEnum, n: len(s.Symbols())}
	case *hamba.FixedSchema:
		return gop{kind: gSkip, n: s.Size()}
	}
	return compilePrimitive(s.Type())
}

// compileRecord returns the record's node, compiling it on first sight. A
// record met again while its fields are being compiled is a cycle: the
// pointer is returned and filled in when its compilation finishes.
func compileRecord(s *hamba.RecordSchema, named map[string]*gnode) *gnode {
	if g, ok := named[s.FullName()]; ok {
		return g
	}
	g := &gnode{}
	named[s.FullName()] = g
	var seq []gop
	for _, f := range s.Fields() {
		seq = append(seq, compileSeq(f.Type(), named)...)
	}
	g.seq = seq
	return g
}

func compileUnion(s *hamba.UnionSchema, named map[string]*gnode) *gnode {
	g := &gnode{}
	for _, t := range s.Types() {
		g.alts = append(g.alts, compileSeq(t, named))
	}
	return g
}

func compilePrimitive(t hamba.Type) gop {
	switch t {
	case hamba.Boolean:
		return gop{kind: gSkip, n: 1}
	case hamba.Int, hamba.Long:
		return gop{kind: gLong}
	case hamba.Float:
		return gop{kind: gSkip, n: 4}
	case hamba.Double:
		return gop{kind: gSkip, n: 8}
	case hamba.String, hamba.Bytes:
		return gop{kind: gLen}
	}
	return gop{kind: gNone}
}

// needsGuard reports whether s holds an array, a map or a reference to a
// named type, the places hamba trusts the wire too far, or a string or
// bytes, whose length hamba allocates (up to MaxBytesSize) before it finds
// the body too short: nine bytes claiming a 12 MB string cost 12 MB.
func needsGuard(s hamba.Schema, seen map[hamba.Schema]bool) bool {
	if seen[s] {
		return false
	}
	seen[s] = true
	switch s := s.(type) {
	case *hamba.ArraySchema, *hamba.MapSchema, *hamba.RefSchema:
		return true
	case *hamba.PrimitiveSchema:
		return s.Type() == hamba.String || s.Type() == hamba.Bytes
	case *hamba.RecordSchema:
		for _, f := range s.Fields() {
			if needsGuard(f.Type(), seen) {
				return true
			}
		}
	case *hamba.UnionSchema:
		for _, t := range s.Types() {
			if needsGuard(t, seen) {
				return true
			}
		}
	}
	return false
}
