package patterns

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

// Responder is a running Serve. Safe for concurrent use.
type Responder struct {
	consumer     *acemq.Consumer
	answered     atomic.Int64
	unanswerable atomic.Int64
	expired      atomic.Int64
}

// Answered returns how many replies (answers and failure replies) were
// sent; a reply is counted as it is sent, and taken back if sending fails.
func (r *Responder) Answered() int64 { return r.answered.Load() }

// Unanswerable returns how many requests named no reply address (neither
// the acemq-reply-to header nor the reply-to property), or one the
// responder refuses (see Serve); they were dead-lettered.
func (r *Responder) Unanswerable() int64 { return r.unanswerable.Load() }

// Expired returns how many requests got no reply because their deadline
// passed: before they were picked up (the handler never ran), or while the
// handler ran (the caller had given up).
func (r *Responder) Expired() int64 { return r.expired.Load() }

// Close stops the responder as acemq.Consumer.Close does: requests not yet
// started return to the queue, running handlers finish. Idempotent.
func (r *Responder) Close() error { return r.consumer.Close() }

// Done is closed once the responder has stopped.
func (r *Responder) Done() <-chan struct{} { return r.consumer.Done() }

// Serve answers the requests arriving on queue, which must already be
// declared (Serve never redeclares it), with h. A request's reply goes to
// its acemq-reply-to header, else its AMQP reply-to property; a request
// with neither is dead-lettered, and so is one whose address is certainly
// not a reply queue (the request queue itself, a {queue}.dlq, .parked or
// .retry. queue, an amq.* name other than direct reply-to, or a queue a
// consumer of conn reads, such as a command queue): its handler does not
// run. Direct reply-to and acemq-reply-<uuid> addresses are always answered. h's ctx carries the caller's deadline
// (acemq-deadline); a request whose deadline passed before pickup is dropped
// without calling h. A *DeclaredError from h (wrapped or not) becomes a
// failure reply with its code; any other error (or panic) a generic failure
// reply, while the request is dead-lettered and the error logged. A failure
// reply's body is the codec's null, or Resp's zero value where the codec has
// no null (see the package documentation). Replies go
// through the publish interceptors, encoded with the consumer's codec. opts
// are the consumer's (ConsumeWith, Concurrency, Prefetch, …).
func Serve[Req, Resp any](ctx context.Context, conn *acemq.Conn, queue string, h func(context.Context, acemq.Message[Req]) (Resp, error), opts ...acemq.ConsumeOption) (*Responder, error) {
	if h == nil {
		return nil, fmt.Errorf("acemq: Serve on %q was given a nil handler", queue)
	}
	s, err := newServer(conn, queue, h, opts)
	if err != nil {
		return nil, err
	}
	c, err := acemq.Consume(ctx, conn, queue, s.handle, opts...)
	if err != nil {
		return nil, err
	}
	s.r.consumer = c
	return s.r, nil
}

// DeclareAndServe applies t (which may be nil), then Serves queue: what
// generated code calls.
func DeclareAndServe[Req, Resp any](ctx context.Context, conn *acemq.Conn, t *acemq.Topology, queue string, h func(context.Context, acemq.Message[Req]) (Resp, error), opts ...acemq.ConsumeOption) (*Responder, error) {
	if t != nil {
		if err := t.Apply(ctx, conn); err != nil {
			return nil, err
		}
	}
	return Serve(ctx, conn, queue, h, opts...)
}

// server is the handler side of a Responder.
type server[Req, Resp any] struct {
	conn     *acemq.Conn
	queue    string
	h        func(context.Context, acemq.Message[Req]) (Resp, error)
	r        *Responder
	codec    acemq.Codec
	answers  *acemq.Publisher[Resp]
	failures *acemq.Publisher[[]byte]
	bare     *acemq.Publisher[[]byte]
}

func newServer[Req, Resp any](conn *acemq.Conn, queue string, h func(context.Context, acemq.Message[Req]) (Resp, error), opts []acemq.ConsumeOption) (*server[Req, Resp], error) {
	codec, err := acemq.ConsumeCodec(conn, opts...)
	if err != nil {
		return nil, err
	}
	s := &server[Req, Resp]{conn: conn, queue: queue, h: h, r: &Responder{}, codec: codec}
	answers := acemq.NewPublisher(conn, "", "", acemq.PublishWith[Resp](codec), acemq.NotPersistent[Resp]())
	s.answers = acemq.Through(answers, s.sendReply)
	s.failures = s.bodiesAs(encodedAs{codec})
	s.bare = s.bodiesAs(acemq.BytesCodec{})
	return s, nil
}

// bodiesAs is a reply publisher of bodies already encoded, labelled by codec.
func (s *server[Req, Resp]) bodiesAs(codec acemq.Codec) *acemq.Publisher[[]byte] {
	p := acemq.NewPublisher(s.conn, "", "", acemq.PublishWith[[]byte](codec), acemq.NotPersistent[[]byte]())
	return acemq.Through(p, s.sendReply)
}

// handle is the consumer's handler: address, deadline, h, reply.
func (s *server[Req, Resp]) handle(ctx context.Context, m acemq.Message[Req]) acemq.Ack {
	to := replyAddress(m.Envelope)
	if to == "" {
		s.r.unanswerable.Add(1)
		return acemq.Reject(acemq.Fatalf("acemq: request %s names no reply address (neither the %s header nor the reply-to property)",
			m.Envelope.ID, HeaderReplyTo))
	}
	if why := replyRefusal(s.conn, s.queue, to); why != "" {
		return refuseReply(s.r, m.Envelope, to, why)
	}
	t := replyTarget{address: to}
	t.deadline, t.bounded = requestDeadline(m.Envelope)
	if s.expired(t) {
		return acemq.Accept()
	}
	resp, err := s.call(ctx, m, t)
	if s.expired(t) {
		return acemq.Accept()
	}
	return s.reply(ctx, m, t, resp, err)
}

// expired counts and reports a request whose caller's deadline has passed.
func (s *server[Req, Resp]) expired(t replyTarget) bool {
	if !t.bounded || time.Now().Before(t.deadline) {
		return false
	}
	s.r.expired.Add(1)
	return true
}

// call runs h under the request's deadline, turning a panic into an error.
func (s *server[Req, Resp]) call(ctx context.Context, m acemq.Message[Req], t replyTarget) (resp Resp, err error) {
	if t.bounded {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, t.deadline)
		defer cancel()
	}
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("acemq: the handler panicked on request %s: %v", m.Envelope.ID, p)
		}
	}()
	return s.h(ctx, m)
}

// replyAddress is the acemq-reply-to header, else the reply-to property.
func replyAddress(env acemq.Envelope) string {
	if to, ok := headerString(env.Headers, HeaderReplyTo); ok && to != "" {
		return to
	}
	return env.ReplyTo
}

// requestDeadline reads acemq-deadline; bounded is false without one.
func requestDeadline(env acemq.Envelope) (deadline time.Time, bounded bool) {
	ms, ok := headerMillis(env.Headers, HeaderDeadline)
	if !ok || ms <= 0 {
		return time.Time{}, false
	}
	return time.UnixMilli(ms), true
}
