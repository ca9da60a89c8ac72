package amqpvalue

import (
	"encoding/binary"
	"testing"
)

// enc helps build encoded tables by hand.
func lenPrefixed(body []byte) []byte {
	return append(binary.BigEndian.AppendUint32(nil, uint32(len(body))), body...)
}

// entry encodes one table entry: key, then the field (type octet and value).
func entry(key string, field ...byte) []byte {
	return append(append([]byte{byte(len(key))}, key...), field...)
}

// nestedTables is a table with depth tables nested in it.
func nestedTables(depth int) []byte {
	t := lenPrefixed(entry("leaf", 'V'))
	for range depth {
		t = lenPrefixed(entry("n", append([]byte{'F'}, t...)...))
	}
	return t
}

func wideTableBytes(n int) []byte {
	var body []byte
	for i := range n {
		body = append(body, entry(string(rune('a'+i%26))+string(rune('a'+i/26%26))+string(rune('a'+i/676%26)), 'V')...)
	}
	return lenPrefixed(body)
}

func TestCheckTableFindsWhatAmqp091CannotRead(t *testing.T) {
	cases := []struct {
		name  string
		table []byte
		want  TableProblem
	}{
		{"empty", lenPrefixed(nil), TableOK},
		{"every type", lenPrefixed(append(append(append(entry("s", 'S', 0, 0, 0, 1, 'x'), entry("i", 'I', 0, 0, 0, 1)...),
			entry("a", 'A', 0, 0, 0, 2, 't', 1)...), entry("d", 'D', 1, 0, 0, 0, 1)...)), TableOK},
		{"32 deep", nestedTables(32), TableOK},
		{"33 deep", nestedTables(33), TableTooDeep},
		{"8192 entries", wideTableBytes(8192), TableOK},
		{"8193 entries", wideTableBytes(8193), TableTooWide},
		{"unknown type", lenPrefixed(entry("z", 'Z', 1)), TableUnknownType},
		{"length past the end", []byte{0, 0, 0, 9, 1}, TableTruncated},
		{"string past the end", lenPrefixed(entry("s", 'S', 0, 0, 1, 0, 'x')), TableTruncated},
		{"key past the end", lenPrefixed([]byte{9, 'k'}), TableTruncated},
		{"int cut short", lenPrefixed(entry("l", 'l', 1, 2)), TableTruncated},
		{"no length", []byte{0, 0}, TableTruncated},
		{"huge length", []byte{0xff, 0xff, 0xff, 0xff}, TableTruncated},
	}
	for _, c := range cases {
		n, got := CheckTable(c.table)
		if got != c.want || (got == TableOK && n != len(c.table)) {
			t.Errorf("%s: CheckTable = %d, %v; want %v spanning %d", c.name, n, got, c.want, len(c.table))
		}
	}
}

func TestCheckTableDoesNotAllocate(t *testing.T) {
	table := nestedTables(32)
	if n := testing.AllocsPerRun(10, func() { CheckTable(table) }); n != 0 {
		t.Fatalf("CheckTable allocated %v times, want 0", n)
	}
}

// FuzzCheckTable: no input panics, a span never runs past the input, and no
// input allocates (the memory bound: the checker holds nothing of its own).
func FuzzCheckTable(f *testing.F) {
	f.Add(nestedTables(3))
	f.Add(lenPrefixed(entry("a", 'A', 0, 0, 0, 2, 't', 1)))
	f.Add([]byte{0, 0, 0, 3, 1, 'k', 'Z'})
	f.Fuzz(func(t *testing.T, b []byte) {
		var n int
		var p TableProblem
		if allocs := testing.AllocsPerRun(1, func() { n, p = CheckTable(b) }); allocs != 0 {
			t.Fatalf("CheckTable allocated %v times", allocs)
		}
		if n > len(b) || (p == TableOK) != (n > 0) {
			t.Fatalf("CheckTable = %d, %v for %d bytes", n, p, len(b))
		}
		_ = p.String()
	})
}
