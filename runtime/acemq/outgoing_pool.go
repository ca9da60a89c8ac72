package acemq

import (
	"errors"
	"sync"

	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// outgoings holds the messages of finished Sends for the next ones: the
// message itself, its envelope's Headers map and its wire table, which Send
// would otherwise allocate every time.
var outgoings = sync.Pool{New: func() any {
	return &outgoing{headers: map[string]any{}, wire: map[string]any{}}
}}

// recycles reports whether Sends on c may reuse their messages: only when
// nothing else can still hold a part of one once Send returns. No publish
// interceptor has seen its context or envelope (an interceptor, or an
// outcome hook given the envelope, might keep them), and the transport
// keeps nothing of the headers table (driver.HeadersReleaser).
func recycles(c *Conn) bool {
	if len(c.cfg.pubInts) > 0 {
		return false
	}
	r, ok := c.transport.(driver.HeadersReleaser)
	return ok && r.ReleasesHeaders()
}

// acquire returns an empty message for a Send: a recycled one when p
// recycles, else a new one with a new Headers map.
func (p *Publisher[T]) acquire() *outgoing {
	if !p.recycles {
		return &outgoing{headers: map[string]any{}}
	}
	return outgoings.Get().(*outgoing)
}

// releaseSettled releases o once the transport has answered for it with
// err: unless the outcome is unknown (driver.ErrOutcomeUnknown), in which
// case the transport may still write it again and o is left to the
// garbage collector.
func (p *Publisher[T]) releaseSettled(o *outgoing, err error) {
	if !errors.Is(err, driver.ErrOutcomeUnknown) {
		p.release(o)
	}
}

// release empties o and keeps it for the next Send when p recycles. The
// body is the codec's and the result strings are immutable: only the two
// maps are reused, cleared.
func (p *Publisher[T]) release(o *outgoing) {
	if !p.recycles {
		return
	}
	headers, wire := o.headers, o.wire
	clear(headers)
	clear(wire)
	*o = outgoing{headers: headers, wire: wire}
	outgoings.Put(o)
}
