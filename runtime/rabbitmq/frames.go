package rabbitmq

import (
	"encoding/binary"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/internal/amqpvalue"
)

// AMQP 0-9-1 framing (spec section 2.3.5): a 7-byte header (type, channel,
// payload size), the payload, and the frame-end octet.
const (
	frameHeaderSize = 7
	frameEndSize    = 1
	frameTypeHeader = 2 // a content header: class, weight, body size, properties
	frameEnd        = 0xCE
	// contentHeaderFixed is a content header's payload before its
	// properties: class id, weight, body size and the property flags.
	contentHeaderFixed = 2 + 2 + 8 + 2
	// minFrameMax is the frame_max every peer accepts (spec: frame-min-size).
	minFrameMax = 4096
)

// propKind is how a basic property is encoded.
type propKind uint8

const (
	propShortstr  propKind = iota // one length octet, then the bytes
	propTable                     // a field table
	propOctet                     // delivery-mode, priority
	propTimestamp                 // 64 bits
)

// basicProps are the basic class's properties in the order of their flag
// bits, highest first, as amqp091-go reads them.
var basicProps = [...]struct {
	flag uint16
	kind propKind
}{
	{0x8000, propShortstr}, {0x4000, propShortstr}, {0x2000, propTable}, {0x1000, propOctet},
	{0x0800, propOctet}, {0x0400, propShortstr}, {0x0200, propShortstr}, {0x0100, propShortstr},
	{0x0080, propShortstr}, {0x0040, propTimestamp}, {0x0020, propShortstr}, {0x0010, propShortstr},
	{0x0008, propShortstr}, {0x0004, propShortstr},
}

// flagHeaders is the property flag of the headers table.
const flagHeaders = 0x2000

// headerSpan is where a content header's headers table lies in its
// payload: at, and end (0 when its length could not be read); at is 0 when
// the frame has no headers or the properties before it cannot be read.
type headerSpan struct{ at, end int }

// checkContentHeader checks a content header payload as amqp091-go reads
// it, without allocating, and returns the first problem and where its
// headers table lies.
func checkContentHeader(payload []byte) (amqpvalue.TableProblem, headerSpan) {
	var span headerSpan
	if len(payload) < contentHeaderFixed {
		return amqpvalue.TableTruncated, span
	}
	flags := binary.BigEndian.Uint16(payload[12:14])
	pos := contentHeaderFixed
	for _, prop := range basicProps {
		if flags&prop.flag == 0 {
			continue
		}
		n, p := propSize(payload[pos:], prop.kind)
		if prop.kind == propTable {
			span = headerSpan{at: pos, end: tableEnd(payload, pos)}
		}
		if p != amqpvalue.TableOK {
			return p, span
		}
		pos += n
	}
	return amqpvalue.TableOK, span
}

// tableEnd is where the table at pos ends by its length, or 0 when the
// length runs past the payload.
func tableEnd(payload []byte, pos int) int {
	if len(payload)-pos < 4 {
		return 0
	}
	end := uint64(pos) + 4 + uint64(binary.BigEndian.Uint32(payload[pos:]))
	if end > uint64(len(payload)) {
		return 0
	}
	return int(end)
}

// propSize is the size of the property of kind at the start of b.
func propSize(b []byte, kind propKind) (int, amqpvalue.TableProblem) {
	var n int
	switch kind {
	case propTable:
		return amqpvalue.CheckTable(b)
	case propShortstr:
		if len(b) > 0 {
			n = 1 + int(b[0])
		} else {
			n = 1
		}
	case propOctet:
		n = 1
	case propTimestamp:
		n = 8
	}
	if len(b) < n {
		return 0, amqpvalue.TableTruncated
	}
	return n, amqpvalue.TableOK
}

// refusedMarker encodes the header table a refused one is replaced with:
// {acemq.HeaderHeadersRefused: reason}.
func refusedMarker(reason string) []byte {
	key := acemq.HeaderHeadersRefused
	size := 1 + len(key) + 1 + 4 + len(reason)
	b := make([]byte, 0, 4+size)
	b = binary.BigEndian.AppendUint32(b, uint32(size))
	b = append(append(b, byte(len(key))), key...)
	b = append(b, 'S')
	b = binary.BigEndian.AppendUint32(b, uint32(len(reason)))
	return append(b, reason...)
}

// rewriteContentHeader returns the frame (header, payload and frame end)
// of a content header whose payload amqp091-go cannot read (problem p): its
// headers table is replaced with the refused marker naming p, keeping the
// other properties when they can be read and the frame does not grow past
// minFrameMax; otherwise only the body size and the marker remain. The
// result always reads.
func rewriteContentHeader(frame []byte, p amqpvalue.TableProblem, span headerSpan) []byte {
	payload := frame[frameHeaderSize : len(frame)-frameEndSize]
	marker := refusedMarker(p.String())
	if len(payload) >= contentHeaderFixed && span.at > 0 && span.end > 0 {
		kept := make([]byte, 0, span.at+len(marker)+len(payload)-span.end)
		kept = append(append(append(kept, payload[:span.at]...), marker...), payload[span.end:]...)
		if q, _ := checkContentHeader(kept); q == amqpvalue.TableOK &&
			(len(kept) <= len(payload) || len(kept)+frameHeaderSize+frameEndSize <= minFrameMax) {
			return framed(frame, kept)
		}
	}
	bare := make([]byte, contentHeaderFixed, contentHeaderFixed+len(marker))
	copy(bare, payload[:min(len(payload), 12)]) // class, weight, body size (zero when cut short)
	binary.BigEndian.PutUint16(bare[12:], flagHeaders)
	return framed(frame, append(bare, marker...))
}

// framed wraps payload in frame's type and channel, its size and a frame end.
func framed(frame, payload []byte) []byte {
	out := make([]byte, 0, frameHeaderSize+len(payload)+frameEndSize)
	out = append(out, frame[:3]...)
	out = binary.BigEndian.AppendUint32(out, uint32(len(payload)))
	return append(append(out, payload...), frameEnd)
}
