package acemqimpl

import (
	"context"
	"io"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/patterns"
)

// RPCSpec is what a contract says of one RPC, requests Req answered with
// Resp, and what its generated functions delegate to. Requests reach Queue, a
// quorum queue, through the default exchange. Build one as a composite
// literal; it is read-only afterwards and safe for concurrent use.
type RPCSpec[Req, Resp any] struct {
	// Queue is the queue the RPC's responder serves.
	Queue string
	// Codec builds the contract's codec of requests and responses for a connection.
	Codec CodecBuilder
	// Timeout is how long a call waits for its response at most.
	Timeout time.Duration
	// Errors are the RPC's declared errors: a caller receives each as itself.
	Errors []*patterns.DeclaredError
	// Queues are the contract's queue keys: their options apply to Queue
	// after its quorum type, their set-aside type to Queue's {queue}.dlq and
	// {queue}.parked. The zero value: none.
	Queues QueueKeys
}

// Serve declares Queue (Declare) and answers each request with h's response
// or error. The contract's codec applies before opts, so opts win.
func (s *RPCSpec[Req, Resp]) Serve(ctx context.Context, conn *acemq.Conn,
	h func(context.Context, acemq.Message[Req]) (Resp, error), opts ...acemq.ConsumeOption) (*patterns.Responder, error) {
	own := []acemq.ConsumeOption{ConsumeWithFunc(conn, s.Codec)}
	if o := s.Queues.consumeOption(); o != nil {
		own = append(own, o)
	}
	return patterns.DeclareAndServe(ctx, conn, s.Declare(acemq.NewTopology()), s.Queue, h, append(own, opts...)...)
}

// Responder is Serve as a start function of StartServer.
func (s *RPCSpec[Req, Resp]) Responder(conn *acemq.Conn, h func(context.Context, acemq.Message[Req]) (Resp, error),
	opts ...acemq.ConsumeOption) func(context.Context) (io.Closer, error) {
	return func(ctx context.Context) (io.Closer, error) { return s.Serve(ctx, conn, h, opts...) }
}

// Client returns the RPC's client on conn: calls wait at most Timeout, the
// declared Errors come back as themselves, and the contract's codec is built
// at the first call (a codec conn cannot provide fails that call naming it).
func (s *RPCSpec[Req, Resp]) Client(conn *acemq.Conn) *patterns.Client[Req, Resp] {
	opts := []patterns.RequesterOption{patterns.Timeout(s.Timeout)}
	if len(s.Errors) > 0 {
		opts = append(opts, patterns.DeclaredErrors(s.Errors...))
	}
	opts = append(opts, patterns.RequesterCodecFunc(s.Codec))
	return patterns.NewClient[Req, Resp](conn, "", s.Queue, opts...)
}

// Declare adds Queue to t as a quorum queue, with the options of Queues and
// its dead-letter queue, and returns t.
func (s *RPCSpec[Req, Resp]) Declare(t *acemq.Topology) *acemq.Topology {
	opts := append([]acemq.QueueOption{acemq.OfType(acemq.QueueQuorum)}, s.Queues.Options()...)
	return s.Queues.deadLetters(t.Queue(s.Queue, opts...), s.Queue)
}
