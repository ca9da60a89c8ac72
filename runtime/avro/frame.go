package avro

import (
	"encoding/binary"
	"errors"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

// frameSize is Confluent's framing: a zero byte and a 4-byte big-endian id.
const frameSize = 5

var (
	errNoFrame = errors.New("acemq: this message carries no schema identifier, so it was written by a codec built with Of rather than Registered")
	errNoID    = errors.New("acemq: a codec built with avro.Of has no schema id; build it with avro.Registered")
)

// appendFrame appends 0x00, id big-endian and body to dst.
func appendFrame(dst []byte, id int, body []byte) []byte {
	dst = append(dst, 0)
	dst = binary.BigEndian.AppendUint32(dst, uint32(id))
	return append(dst, body...)
}

// splitFrame returns the schema id and the Avro body of a framed message. A
// body too short for the frame or not starting 0x00 is fatal.
func splitFrame(body []byte) (int, []byte, error) {
	if len(body) < frameSize || body[0] != 0 {
		return 0, nil, acemq.Fatal(errNoFrame)
	}
	return int(binary.BigEndian.Uint32(body[1:frameSize])), body[frameSize:], nil
}

// putFrame writes the frame (0x00 and id big-endian) over the first
// frameSize bytes of body.
func putFrame(body []byte, id int) {
	body[0] = 0
	binary.BigEndian.PutUint32(body[1:frameSize], uint32(id))
}
