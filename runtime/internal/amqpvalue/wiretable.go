package amqpvalue

import "encoding/binary"

// The limits amqp091-go (v1.16.0, read.go) applies when it reads a field
// table off the wire; a table past one of them fails the whole connection.
const (
	// MaxTableDepth is how deeply tables and arrays may nest inside a
	// header table (the header table itself is depth 0).
	MaxTableDepth = 32
	// MaxTableEntries is how many entries one table or array may hold.
	MaxTableEntries = 8192
)

// TableProblem is why an encoded field table cannot be read (TableOK when
// it can).
type TableProblem int

// The problems CheckTable finds.
const (
	TableOK          TableProblem = iota
	TableTooDeep                  // nested deeper than MaxTableDepth
	TableTooWide                  // a table or array with more than MaxTableEntries entries
	TableUnknownType              // a field type AMQP 0-9-1 does not define
	TableTruncated                // a length runs past the end, or is negative
)

// String is the problem as the end of a set-aside reason.
func (p TableProblem) String() string {
	switch p {
	case TableOK:
		return "the header table is well formed"
	case TableTooDeep:
		return "the header table is nested deeper than 32"
	case TableTooWide:
		return "the header table has a table or array of more than 8192 entries"
	case TableUnknownType:
		return "the header table holds a field of an unknown type"
	}
	return "the header table is truncated"
}

// CheckTable checks the encoded field table at the start of b (a 32-bit
// length, then that many bytes of entries) as amqp091-go reads it, without
// allocating. It returns the bytes the table spans (0 with a problem) and
// the first problem found. It is stricter than amqp091-go in one way: an
// array whose last field is cut short is truncated, where amqp091-go drops
// that field.
func CheckTable(b []byte) (int, TableProblem) {
	return checkTable(b, 0)
}

// checkTable checks a table at depth.
func checkTable(b []byte, depth int) (int, TableProblem) {
	return checkFields(b, depth, true)
}

// checkArray checks a field array at depth.
func checkArray(b []byte, depth int) (int, TableProblem) {
	return checkFields(b, depth, false)
}

// checkFields checks the length-prefixed fields of a table (named: each field
// after its short-string name) or of a field array, at depth.
func checkFields(b []byte, depth int, named bool) (int, TableProblem) {
	if depth > MaxTableDepth {
		return 0, TableTooDeep
	}
	body, n, p := lengthPrefixed(b)
	if p != TableOK {
		return 0, p
	}
	for entries := 0; len(body) > 0; entries++ {
		if entries == MaxTableEntries {
			return 0, TableTooWide
		}
		if named {
			if len(body) < 1+int(body[0]) {
				return 0, TableTruncated
			}
			body = body[1+int(body[0]):]
		}
		used, p := checkField(body, depth)
		if p != TableOK {
			return 0, p
		}
		body = body[used:]
	}
	return n, TableOK
}

// lengthPrefixed splits a 32-bit length and the bytes it counts off b,
// returning them and the bytes both span.
func lengthPrefixed(b []byte) ([]byte, int, TableProblem) {
	if len(b) < 4 {
		return nil, 0, TableTruncated
	}
	size := uint64(binary.BigEndian.Uint32(b))
	if size > uint64(len(b)-4) || size > 1<<31-1 {
		return nil, 0, TableTruncated
	}
	return b[4 : 4+size], 4 + int(size), TableOK
}

// fixedSizes is the size, after the type octet, of each fixed-size field
// type; 0 for the types of other sizes and unknown ones.
var fixedSizes = [256]uint8{'t': 1, 'B': 1, 'b': 1, 's': 2, 'u': 2, 'I': 4, 'i': 4, 'f': 4,
	'l': 8, 'd': 8, 'T': 8, 'D': 5}

// checkField checks the field (type octet and value) at the start of b, in
// a container at depth, and returns the bytes it spans.
func checkField(b []byte, depth int) (int, TableProblem) {
	if len(b) < 1 {
		return 0, TableTruncated
	}
	var n int
	var p TableProblem
	switch typ := b[0]; typ {
	case 'V':
		return 1, TableOK
	case 'S', 'x':
		_, n, p = lengthPrefixed(b[1:])
	case 'F':
		n, p = checkTable(b[1:], depth+1)
	case 'A':
		n, p = checkArray(b[1:], depth+1)
	default:
		n = int(fixedSizes[typ])
		if n == 0 {
			return 0, TableUnknownType
		}
		if len(b) < 1+n {
			return 0, TableTruncated
		}
	}
	return 1 + n, p
}

// EntrySize is the encoded size of the table entry key: v, as a client
// writes v after Rules convert it (a type these rules do not know counts 9
// bytes, the most a fixed-size field takes).
func EntrySize(key string, v any) int { return 1 + len(key) + FieldSize(v) }

// FieldSize is the encoded size of the field v: its type octet and value
// (see EntrySize).
func FieldSize(v any) int {
	switch x := v.(type) {
	case nil:
		return 1
	case bool, int8, uint8:
		return 2
	case int16, uint16:
		return 3
	case int32, uint32, float32:
		return 5
	case int:
		if x < -1<<31 || x > 1<<31-1 {
			return 9
		}
		return 5
	case string:
		return 5 + len(x)
	case []byte:
		return 5 + len(x)
	case map[string]any:
		return 1 + TableSize(x)
	case []any:
		n := 5
		for _, e := range x {
			n += FieldSize(e)
		}
		return n
	case []string:
		n := 5
		for _, e := range x {
			n += 5 + len(e)
		}
		return n
	}
	return 9
}

// TableSize is the encoded size of the table h: its length and entries.
func TableSize(h map[string]any) int {
	n := 4
	for k, v := range h {
		n += EntrySize(k, v)
	}
	return n
}
