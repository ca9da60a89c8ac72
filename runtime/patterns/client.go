package patterns

import (
	"context"
	"sync"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

// Client is a Requester made on first use, what generated RPC clients hold:
// NewClient does no I/O. Safe for concurrent use; Close it when done.
type Client[Req, Resp any] struct {
	conn     *acemq.Conn
	exchange string
	key      string
	opts     []RequesterOption
	mu       sync.Mutex
	req      *Requester[Req, Resp]
	closed   bool
}

// NewClient returns a client of the RPC at exchange with key; see
// NewRequester for the options.
func NewClient[Req, Resp any](conn *acemq.Conn, exchange, key string, opts ...RequesterOption) *Client[Req, Resp] {
	return &Client[Req, Resp]{conn: conn, exchange: exchange, key: key, opts: opts}
}

// Do makes the requester if there is none yet (a failure is returned, and
// the next Do tries again), then calls its Do.
func (c *Client[Req, Resp]) Do(ctx context.Context, req Req, opts ...acemq.EnvelopeOption) (Resp, error) {
	r, err := c.requester(ctx)
	if err != nil {
		var zero Resp
		return zero, err
	}
	return r.Do(ctx, req, opts...)
}

func (c *Client[Req, Resp]) requester(ctx context.Context) (*Requester[Req, Resp], error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil, ErrRequesterClosed
	}
	if c.req == nil {
		r, err := NewRequester[Req, Resp](ctx, c.conn, c.exchange, c.key, c.opts...)
		if err != nil {
			return nil, err
		}
		c.req = r
	}
	return c.req, nil
}

// Close closes the requester, if one was made; later calls fail with
// ErrRequesterClosed. Idempotent.
func (c *Client[Req, Resp]) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	if c.req == nil {
		return nil
	}
	return c.req.Close()
}
