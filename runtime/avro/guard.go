package avro

import (
	"errors"
	"fmt"
	"math"

	hamba "github.com/hamba/avro/v2"
)

// MaxDepth is how deeply a message may nest records, arrays, maps and
// unions of a recursive schema before it is refused.
const MaxDepth = 512

// The guard walks a body along its writer's schema before hamba decodes it,
// for schemas with arrays, maps or named-type references, because hamba
// v2.31.0 trusts what the wire claims:
//   - a block of (1<<63)-1 items after a non-empty one overflows its running
//     total, which then passes the MaxSliceAllocSize check and has it write
//     past the end of the slice;
//   - it grows a slice to a block's count before reading an item, so four
//     bytes claiming 1<<20 records allocate 1<<20 times the record's size;
//   - a skipped array or map with a huge count spins for as long as the
//     count says, and a deeply recursive value exhausts the stack.
//
// The walk costs one pass over the bytes, allocates nothing, and refuses
// every such body before hamba sees it.
var (
	errOverrun   = errors.New("a length or count runs past the end of the body")
	errBadLength = errors.New("a negative length")
	errTooDeep   = fmt.Errorf("the value nests deeper than %d levels", MaxDepth)
	errBadBlock  = errors.New("a block's byte size does not match its items")
	errTooMany   = fmt.Errorf("more than %d array and map items in all (avro.MaxArrayItems)", MaxArrayItems)
)

// guard walks body along g; g nil means no walk is needed.
func guard(g *gnode, body []byte) error {
	if g == nil {
		return nil
	}
	w := walker{b: body, budget: MaxArrayItems}
	w.seq(g.seq, 0)
	return w.err
}

// guarded compiles s for the walk when decoding it needs one (it holds an
// array, a map or a reference to a named type), otherwise returns nil.
func guarded(s hamba.Schema) *gnode {
	if needsGuard(s, map[hamba.Schema]bool{}) {
		return compile(s, map[string]*gnode{})
	}
	return nil
}

// walker reads Avro's binary encoding structurally; the first problem stops
// it and stays in err.
type walker struct {
	b      []byte
	pos    int
	budget int64 // array and map items the rest of the message may hold
	err    error
}

func (w *walker) fail(err error) {
	if w.err == nil {
		w.err = err
	}
	w.pos = len(w.b)
}

// long reads a zigzag varint; the one-byte case (most lengths, counts and
// small numbers) is inlined where it is called.
func (w *walker) long() int64 {
	if w.pos < len(w.b) {
		if c := w.b[w.pos]; c < 0x80 {
			w.pos++
			return int64(c>>1) ^ -int64(c&1)
		}
	}
	return w.longSlow()
}

// longSlow reads a zigzag varint of at most 10 bytes.
func (w *walker) longSlow() int64 {
	var v uint64
	for i, s := 0, uint(0); i < 10; i, s = i+1, s+7 {
		if w.pos >= len(w.b) {
			w.fail(errOverrun)
			return 0
		}
		c := w.b[w.pos]
		w.pos++
		v |= uint64(c&0x7f) << s
		if c < 0x80 {
			return int64(v>>1) ^ -int64(v&1)
		}
	}
	w.fail(errors.New("a varint longer than 10 bytes"))
	return 0
}

// skip advances n bytes, refusing a negative n or one past the end.
func (w *walker) skip(n int64) {
	switch {
	case n < 0:
		w.fail(errBadLength)
	case n > int64(len(w.b)-w.pos):
		w.fail(errOverrun)
	default:
		w.pos += int(n)
	}
}

// seq walks one value per node of seq, the fields of a record spliced in
// (see compile), without a call for the common scalar kinds.
func (w *walker) seq(seq []gop, depth int) {
	for i := range seq {
		g := &seq[i]
		switch g.kind {
		case gNone:
		case gSkip:
			w.skip(int64(g.n))
		case gLong: // w.long(), its one-byte case inlined
			if w.pos < len(w.b) && w.b[w.pos] < 0x80 {
				w.pos++
			} else {
				w.longSlow()
			}
		case gLen:
			if !w.shortLen() {
				w.skip(w.long())
			}
		case gUnion: // no depth check: a union nests only through a record, array or map
			if alt := w.alt(g.sub.alts); alt != nil {
				w.seq(alt, depth+1)
			}
		default:
			w.nested(g, depth+1)
		}
	}
}

// shortLen skips a string or bytes value whose length fits one byte and
// whose bytes are there, reporting whether it did.
func (w *walker) shortLen() bool {
	p := w.pos
	if p >= len(w.b) || w.b[p]&0x81 != 0 { // a longer varint, or a negative length
		return false
	}
	end := p + 1 + int(w.b[p]>>1)
	if end > len(w.b) {
		return false
	}
	w.pos = end
	return true
}

// nested walks the kinds that nest, counting depth.
func (w *walker) nested(g *gop, depth int) {
	if depth > MaxDepth {
		w.fail(errTooDeep)
		return
	}
	switch g.kind {
	case gRecord:
		w.seq(g.sub.seq, depth)
	case gEnum:
		w.index(g.n, "enum")
	case gArray, gMap:
		w.blocks(g, depth)
	}
}

// alt reads a union's index and returns that branch, or nil on an error.
func (w *walker) alt(alts [][]gop) []gop {
	if p := w.pos; p < len(w.b) && w.b[p]&0x81 == 0 && int(w.b[p]>>1) < len(alts) {
		w.pos++ // a one-byte index, the common case
		return alts[w.b[p]>>1]
	}
	if i, ok := w.index(len(alts), "union"); ok {
		return alts[i]
	}
	return nil
}

// index reads an enum's or a union's index, which must be below n.
func (w *walker) index(n int, what string) (int, bool) {
	i := w.long()
	if i < 0 || i >= int64(n) {
		w.fail(fmt.Errorf("%s index %d out of range", what, i))
		return 0, false
	}
	return int(i), true
}

// blocks walks an array's or a map's blocks: every count within what is
// left of the message's item budget (MaxArrayItems over all its arrays and
// maps, so that nested arrays of zero-width items cannot multiply it), every
// byte size equal to what its items take.
func (w *walker) blocks(g *gop, depth int) {
	for w.err == nil {
		n, size := w.blockHeader()
		if n == 0 || w.err != nil {
			return
		}
		if n > w.budget {
			w.fail(errTooMany)
			return
		}
		w.budget -= n
		w.items(n, size, g, depth)
	}
}

// blockHeader reads a block's count and, for a negative count, its byte size
// (-1 when absent).
func (w *walker) blockHeader() (n, size int64) {
	if p := w.pos; p < len(w.b) && w.b[p]&0x81 == 0 {
		w.pos++ // a one-byte count, the common case
		return int64(w.b[p] >> 1), -1
	}
	n = w.long()
	if n >= 0 {
		return n, -1
	}
	if n == math.MinInt64 {
		w.fail(errBadLength)
		return 0, 0
	}
	size = w.long()
	if size < 0 {
		w.fail(errBadLength)
	}
	return -n, size
}

func (w *walker) items(n, size int64, g *gop, depth int) {
	start, item := w.pos, g.sub.seq
	short := len(item) == 1 && item[0].kind == gLen // strings or bytes
	for i := int64(0); i < n && w.err == nil; i++ {
		if g.kind == gMap {
			w.skip(w.long()) // the key
		}
		if !short || !w.shortLen() {
			w.seq(item, depth)
		}
	}
	if size >= 0 && w.err == nil && int64(w.pos-start) != size {
		w.fail(errBadBlock)
	}
}
