package rabbitmq

import (
	"bufio"
	"encoding/binary"
	"io"
	"net"

	"github.com/acemq/acemq-gen/runtime/internal/amqpvalue"
)

// Sizes of the frame filter's buffers.
const (
	// filterReadBuffer is the read-ahead under the filter (amqp091-go adds
	// its own 4 KiB one above it).
	filterReadBuffer = 32 * 1024
	// maxFilteredFrame is the largest content header the filter checks:
	// the frame_max the transport offers (amqp091-go's default, 128 KiB).
	// amqp091-go refuses a larger frame itself, before reading it.
	maxFilteredFrame = 128 * 1024
)

// frameFilter is the connection amqp091-go reads from: the plaintext
// socket (under TLS for amqps), with every content header frame checked
// before amqp091-go parses it. amqp091-go fails the whole connection on a
// header table it cannot read (nested deeper than 32, more than 8192
// entries, an unknown field type, a length past the end): the filter
// rewrites such a frame with the headers replaced by
// {x-acemq-headers-refused: reason}, so the engine parks that one delivery
// with the reason and the connection lives on. Other frames pass through
// without a copy beyond the read-ahead's and without allocating. Reads are
// not safe for concurrent use (amqp91-go reads from one goroutine); writes,
// deadlines and Close go to the socket.
type frameFilter struct {
	net.Conn
	br      *bufio.Reader
	left    int    // bytes of the frame passing through not read yet
	out     []byte // the checked (perhaps rewritten) content header not read yet
	scratch []byte // the last content header read, reused
}

func newFrameFilter(nc net.Conn) *frameFilter {
	return &frameFilter{Conn: nc, br: bufio.NewReaderSize(nc, filterReadBuffer)}
}

// Read reads the filtered stream.
func (f *frameFilter) Read(p []byte) (int, error) {
	if len(f.out) == 0 && f.left == 0 {
		if err := f.next(); err != nil {
			return 0, err
		}
	}
	if len(f.out) > 0 {
		n := copy(p, f.out)
		f.out = f.out[n:]
		return n, nil
	}
	n, err := f.br.Read(p[:min(len(p), f.left)])
	f.left -= n
	return n, err
}

// next looks at the next frame's header: a content header is read whole
// and checked, any other frame passes through.
func (f *frameFilter) next() error {
	hdr, err := f.br.Peek(frameHeaderSize)
	if err != nil {
		return err
	}
	size := int(binary.BigEndian.Uint32(hdr[3:7]))
	whole := frameHeaderSize + size + frameEndSize
	if hdr[0] != frameTypeHeader || size > maxFilteredFrame {
		f.left = whole
		return nil
	}
	if cap(f.scratch) < whole {
		f.scratch = make([]byte, whole)
	}
	frame := f.scratch[:whole]
	if _, err := io.ReadFull(f.br, frame); err != nil {
		return err
	}
	f.out = filterContentHeader(frame)
	return nil
}

// filterContentHeader returns frame as it is when amqp091-go can read it,
// else rewritten with its headers refused.
func filterContentHeader(frame []byte) []byte {
	p, span := checkContentHeader(frame[frameHeaderSize : len(frame)-frameEndSize])
	if p == amqpvalue.TableOK {
		return frame
	}
	return rewriteContentHeader(frame, p, span)
}
