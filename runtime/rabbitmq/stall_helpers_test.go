package rabbitmq

import (
	"bufio"
	"encoding/binary"
	"io"
	"net"
	"sync/atomic"
	"testing"
)

// Stall modes of a stallProxy.
const (
	passAcks    int32 = iota // forward everything
	swallowAcks              // drop the broker's basic.ack and basic.nack
	nackAcks                 // turn the broker's basic.ack into basic.nack
)

// stallProxy forwards AMQP connections to a broker and, once armed, stalls
// one channel: the first that carries a confirm after arm gets none
// (swallowAcks) or only nacks (nackAcks) from then on; every other channel
// works. It stands for a channel of a RabbitMQ cluster opened before a
// quorum queue's new leader was elected.
type stallProxy struct {
	ln       net.Listener
	upstream string
	mode     atomic.Int32
	target   atomic.Int32 // the stalled channel; 0 until chosen, -1 before arm
}

// newStallProxy proxies to the broker of amqpURL and returns the URL that
// goes through it; it closes at cleanup.
func newStallProxy(t *testing.T, amqpURL string) (*stallProxy, string) {
	t.Helper()
	ln, upstream, proxied := listenProxy(t, amqpURL)
	p := &stallProxy{ln: ln, upstream: upstream}
	p.target.Store(-1)
	go p.serve()
	return p, proxied
}

// arm stalls the next channel that carries a confirm, in mode.
func (p *stallProxy) arm(mode int32) {
	p.mode.Store(mode)
	p.target.Store(0)
}

func (p *stallProxy) serve() {
	servePairs(p.ln, p.upstream, func(c, up net.Conn) {
		go func() { p.filter(c, up); _ = c.Close() }()
	})
}

// filter copies the broker's frames to the client, stalling the target
// channel's confirms. The protocol header the broker may answer with is
// shorter than a frame header and ends the copy; the tests never see one.
func (p *stallProxy) filter(dst io.Writer, src io.Reader) {
	br := bufio.NewReader(src)
	head := make([]byte, 7)
	for {
		if _, err := io.ReadFull(br, head); err != nil {
			return
		}
		body := make([]byte, binary.BigEndian.Uint32(head[3:7])+1) // payload and frame end
		if _, err := io.ReadFull(br, body); err != nil {
			return
		}
		if p.stalls(head, body) && p.mode.Load() == swallowAcks {
			continue
		}
		if _, err := dst.Write(append(head, body...)); err != nil {
			return
		}
	}
}

// stalls reports whether the frame is a confirm of the target channel
// (choosing the target when none is yet), turning an ack into a nack in
// nackAcks mode.
func (p *stallProxy) stalls(head, body []byte) bool {
	if head[0] != 1 || len(body) < 4 || binary.BigEndian.Uint16(body) != 60 {
		return false
	}
	method := binary.BigEndian.Uint16(body[2:])
	if method != 80 && method != 120 { // basic.ack, basic.nack
		return false
	}
	ch := int32(binary.BigEndian.Uint16(head[1:3]))
	p.target.CompareAndSwap(0, ch)
	if p.target.Load() != ch {
		return false
	}
	if p.mode.Load() == nackAcks {
		binary.BigEndian.PutUint16(body[2:], 120) // same arguments: delivery tag, multiple; requeue off
	}
	return true
}
