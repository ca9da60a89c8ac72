package rabbitmq

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"io"
	"net"
	"strings"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/internal/amqpvalue"
)

// streamConn is a net.Conn reading from r (the filter reads; nothing else
// is called).
type streamConn struct {
	net.Conn
	r io.Reader
}

func (c streamConn) Read(p []byte) (int, error) { return c.r.Read(p) }

// frame encodes one frame.
func frame(typ byte, channel uint16, payload []byte) []byte {
	b := []byte{typ}
	b = binary.BigEndian.AppendUint16(b, channel)
	b = binary.BigEndian.AppendUint32(b, uint32(len(payload)))
	return append(append(b, payload...), frameEnd)
}

// contentHeader encodes a basic content header payload with a content
// type, the headers table and a message id.
func contentHeader(table []byte, messageID string) []byte {
	b := []byte{0, 60, 0, 0}
	b = binary.BigEndian.AppendUint64(b, 42)
	b = binary.BigEndian.AppendUint16(b, 0x8000|flagHeaders|0x0080)
	b = append(append(b, 16), "application/json"...)
	b = append(b, table...)
	return append(append(b, byte(len(messageID))), messageID...)
}

// encTable encodes a table of the given entries (key then field bytes).
func encTable(entries ...[]byte) []byte {
	body := bytes.Join(entries, nil)
	return append(binary.BigEndian.AppendUint32(nil, uint32(len(body))), body...)
}

func tableEntry(key string, field ...byte) []byte {
	return append(append([]byte{byte(len(key))}, key...), field...)
}

func deepTableBytes(depth int) []byte {
	t := encTable(tableEntry("leaf", 'V'))
	for range depth {
		t = encTable(tableEntry("n", append([]byte{'F'}, t...)...))
	}
	return t
}

// filtered runs stream through a frame filter and returns what amqp091-go
// would read, in reads of 4 KiB as its bufio.Reader makes.
func filtered(t testing.TB, stream []byte) []byte {
	t.Helper()
	f := newFrameFilter(streamConn{r: bytes.NewReader(stream)})
	var out bytes.Buffer
	buf := make([]byte, 4096)
	for {
		n, err := f.Read(buf)
		out.Write(buf[:n])
		if err == io.EOF {
			return out.Bytes()
		}
		if err != nil {
			t.Fatalf("filter read: %v", err)
		}
	}
}

// splitFrames splits a stream of whole frames.
func splitFrames(t testing.TB, b []byte) [][]byte {
	var frames [][]byte
	for len(b) > 0 {
		if len(b) < frameHeaderSize {
			t.Fatalf("%d bytes left over after the frames", len(b))
		}
		n := frameHeaderSize + int(binary.BigEndian.Uint32(b[3:7])) + frameEndSize
		if n > len(b) {
			t.Fatalf("a frame of %d bytes runs past the %d left", n, len(b))
		}
		frames, b = append(frames, b[:n]), b[n:]
	}
	return frames
}

func TestFrameFilterReplacesUnreadableHeaderTablesWithTheirReason(t *testing.T) {
	cases := map[string][]byte{
		"the header table is nested deeper than 32":         deepTableBytes(33),
		"the header table holds a field of an unknown type": encTable(tableEntry("z", 'Z')),
		"the header table is truncated":                     encTable(tableEntry("s", 'S', 0, 0, 0, 9, 'x')),
	}
	for reason, table := range cases {
		method, body := frame(1, 1, []byte{0, 60, 0, 60, 1, 2, 3}), frame(3, 1, []byte(`{"id":7}`))
		stream := bytes.Join([][]byte{method, frame(frameTypeHeader, 1, contentHeader(table, "m-1")), body}, nil)
		frames := splitFrames(t, filtered(t, stream))
		if len(frames) != 3 || !bytes.Equal(frames[0], method) || !bytes.Equal(frames[2], body) {
			t.Fatalf("%s: the frames around the content header changed: %q", reason, frames)
		}
		header := frames[1][frameHeaderSize : len(frames[1])-frameEndSize]
		if p, _ := checkContentHeader(header); p != amqpvalue.TableOK {
			t.Fatalf("%s: the rewritten content header does not read: %v", reason, p)
		}
		want := contentHeader(encTable(tableEntry(acemq.HeaderHeadersRefused, append([]byte{'S', 0, 0, 0, byte(len(reason))}, reason...)...)), "m-1")
		if !bytes.Equal(header, want) {
			t.Errorf("%s: rewritten content header =\n%q\nwant\n%q", reason, header, want)
		}
	}
}

func TestFrameFilterPassesReadableFramesUnchanged(t *testing.T) {
	stream := bytes.Join([][]byte{
		frame(1, 0, []byte{0, 10, 0, 10}),
		frame(frameTypeHeader, 3, contentHeader(deepTableBytes(32), "m-2")),
		frame(3, 3, bytes.Repeat([]byte("b"), 10000)),
		frame(8, 0, nil),
	}, nil)
	if got := filtered(t, stream); !bytes.Equal(got, stream) {
		t.Fatalf("a readable stream came out changed (%d bytes, want %d)", len(got), len(stream))
	}
}

func TestFrameFilterRewritesPropertiesItCannotReadToTheMarkerAlone(t *testing.T) {
	cut := contentHeader(encTable(), "m-3")
	cut = cut[:len(cut)-2] // the message id runs past the end
	frames := splitFrames(t, filtered(t, frame(frameTypeHeader, 1, cut)))
	header := frames[0][frameHeaderSize : len(frames[0])-frameEndSize]
	if p, _ := checkContentHeader(header); p != amqpvalue.TableOK || binary.BigEndian.Uint16(header[12:14]) != flagHeaders ||
		!strings.Contains(string(header), "the header table is truncated") {
		t.Fatalf("rewritten = %q (%v), want the body size and the refused marker alone", header, p)
	}
}

// FuzzFrameFilter: whatever the broker sends, the filter does not panic,
// what it passes on is whole frames (when the input was) whose content
// headers all read, and it keeps no more than one frame of its own: the
// output grows by at most a marker per content header.
func FuzzFrameFilter(f *testing.F) {
	f.Add(frame(frameTypeHeader, 1, contentHeader(deepTableBytes(33), "m")))
	f.Add(frame(frameTypeHeader, 1, contentHeader(encTable(tableEntry("z", 'Z')), "m")))
	f.Add(append(frame(3, 1, []byte("body")), frame(frameTypeHeader, 2, []byte{0, 60})...))
	f.Fuzz(func(t *testing.T, in []byte) {
		fl := newFrameFilter(streamConn{r: bytes.NewReader(in)})
		out, err := io.ReadAll(fl)
		if err != nil && err != io.ErrUnexpectedEOF {
			t.Fatalf("read: %v", err)
		}
		if cap(fl.scratch) > frameHeaderSize+maxFilteredFrame+frameEndSize {
			t.Fatalf("the filter kept %d bytes", cap(fl.scratch))
		}
		if len(out) > len(in)+(len(in)/frameHeaderSize+1)*200 {
			t.Fatalf("%d bytes in, %d out", len(in), len(out))
		}
		assertHeadersRead(t, out)
	})
}

// assertHeadersRead checks every whole content header frame in out reads.
func assertHeadersRead(t *testing.T, out []byte) {
	for len(out) >= frameHeaderSize {
		n := frameHeaderSize + int(binary.BigEndian.Uint32(out[3:7])) + frameEndSize
		if n > len(out) || n < 0 {
			return
		}
		if out[0] == frameTypeHeader && n-frameHeaderSize-frameEndSize <= maxFilteredFrame {
			if p, _ := checkContentHeader(out[frameHeaderSize : n-frameEndSize]); p != amqpvalue.TableOK {
				t.Fatalf("a content header passed the filter unreadable: %v", p)
			}
		}
		out = out[n:]
	}
}

// cycle reads stream over and over.
type cycle struct {
	stream []byte
	at     int
}

func (c *cycle) Read(p []byte) (int, error) {
	n := copy(p, c.stream[c.at:])
	c.at = (c.at + n) % len(c.stream)
	return n, nil
}

// benchDelivery is a delivery's three frames: method, a content header with
// a family envelope, a 1 KiB body.
func benchDelivery() []byte {
	envelope := encTable(tableEntry("x-acemq-id", append([]byte{'S', 0, 0, 0, 36}, strings.Repeat("a", 36)...)...),
		tableEntry("x-acemq-type", append([]byte{'S', 0, 0, 0, 5}, "order"...)...),
		tableEntry("x-acemq-attempt", 'I', 0, 0, 0, 1), tableEntry("x-acemq-first-seen", 'l', 0, 0, 1, 2, 3, 4, 5, 6))
	return bytes.Join([][]byte{frame(1, 1, make([]byte, 60)), frame(frameTypeHeader, 1, contentHeader(envelope, "m")),
		frame(3, 1, make([]byte, 1024))}, nil)
}

// benchRead reads one delivery's bytes from r per op, as amqp091-go's 4 KiB
// bufio.Reader does.
func benchRead(b *testing.B, r io.Reader) {
	delivery := benchDelivery()
	buf := make([]byte, 4096)
	b.SetBytes(int64(len(delivery)))
	b.ReportAllocs()
	for b.Loop() {
		for left := len(delivery); left > 0; {
			n, err := r.Read(buf[:min(len(buf), left)])
			if err != nil {
				b.Fatal(err)
			}
			left -= n
		}
	}
}

// BenchmarkFrameFilter is the filter's cost per delivery; compare
// BenchmarkFrameFilterBaseline, the same reads through a plain bufio.Reader.
func BenchmarkFrameFilter(b *testing.B) {
	benchRead(b, newFrameFilter(streamConn{r: &cycle{stream: bytes.Repeat(benchDelivery(), 64)}}))
}

func BenchmarkFrameFilterBaseline(b *testing.B) {
	benchRead(b, bufio.NewReaderSize(&cycle{stream: bytes.Repeat(benchDelivery(), 64)}, filterReadBuffer))
}
