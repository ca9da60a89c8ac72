package patterns

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
)

// Requester sends typed requests to one exchange and routing key and waits
// for their typed replies, matched by correlation id. It owns one reply
// channel (direct reply-to by default). Safe for concurrent use; Close it
// when done.
type Requester[Req, Resp any] struct {
	conn      *acemq.Conn
	key       string
	cfg       requesterConfig
	pub       *acemq.Publisher[Req]
	replies   driver.ReplyChannel
	pending   *pendingCalls
	late      atomic.Int64
	done      chan struct{}
	closeOnce sync.Once
	closeErr  error
}

// NewRequester opens a requester of Req, answered with Resp, publishing to
// exchange ("" is the default exchange, where key names the responder's
// queue) with key. ctx bounds the setup only. Requests are published
// mandatory and transient: one that reaches no queue fails at once.
func NewRequester[Req, Resp any](ctx context.Context, conn *acemq.Conn, exchange, key string, opts ...RequesterOption) (*Requester[Req, Resp], error) {
	if conn == nil {
		return nil, errors.New("acemq: NewRequester was given a nil connection")
	}
	cfg, err := buildRequesterConfig(conn, opts)
	if err != nil {
		return nil, err
	}
	r := &Requester[Req, Resp]{conn: conn, key: key, cfg: cfg, pending: newPendingCalls(), done: make(chan struct{})}
	if r.replies, err = openReplies(ctx, conn, cfg, r.onReply); err != nil {
		return nil, err
	}
	p := acemq.NewPublisher(conn, exchange, key,
		acemq.PublishWith[Req](cfg.codec), acemq.NotPersistent[Req](), acemq.Mandatory[Req]())
	r.pub = acemq.Through(p, r.send)
	return r, nil
}

// ReplyQueue returns where replies come to now: the direct reply-to address,
// the ReplyTo queue or the fallback acemq-reply-<uuid> queue.
func (r *Requester[Req, Resp]) ReplyQueue() string { return r.replies.Address() }

// Late returns how many replies arrived for no waiting call (after their
// call timed out or was cancelled); they are dropped.
func (r *Requester[Req, Resp]) Late() int64 { return r.late.Load() }

// Close stops the replies; calls still waiting return ErrRequesterClosed.
// Idempotent.
func (r *Requester[Req, Resp]) Close() error {
	r.closeOnce.Do(func() {
		close(r.done)
		r.closeErr = r.replies.Close()
	})
	return r.closeErr
}

// call is one Do in flight, as the publish path sees it through ctx.
type call struct {
	id              string
	start, deadline time.Time
}

type callKey struct{}

// Do sends req and waits for its reply until the sooner of ctx's deadline
// and Timeout. The request goes through the connection's publish
// interceptors; opts shape its envelope, except the correlation id, which Do
// generates. It returns the decoded reply; a declared error (errors.Is with
// the RPC's DeclaredError); an ErrResponderFailed error without the
// handler's text; a *TimeoutError (ErrRequestTimedOut and
// context.DeadlineExceeded) when no reply came in time; context.Canceled
// when ctx was cancelled; or the publish error.
func (r *Requester[Req, Resp]) Do(ctx context.Context, req Req, opts ...acemq.EnvelopeOption) (Resp, error) {
	start := time.Now()
	resp, err := r.do(ctx, req, opts)
	r.observe(start, err)
	return resp, err
}

func (r *Requester[Req, Resp]) do(ctx context.Context, req Req, opts []acemq.EnvelopeOption) (Resp, error) {
	if r.isClosed() {
		var zero Resp
		return zero, ErrRequesterClosed
	}
	id, replies := r.pending.add()
	defer r.pending.remove(id)
	c := &call{id: id, start: time.Now()}
	dctx, cancel := context.WithDeadline(ctx, c.start.Add(r.cfg.timeout))
	defer cancel()
	c.deadline, _ = dctx.Deadline()
	if _, err := r.pub.SendResult(context.WithValue(dctx, callKey{}, c), req, r.envelope(opts, c)...); err != nil {
		var zero Resp
		return zero, r.failed(ctx, dctx, c, err)
	}
	return r.await(ctx, dctx, c, replies)
}

// await waits for the call's reply, its deadline, the caller's cancel or Close.
func (r *Requester[Req, Resp]) await(ctx, dctx context.Context, c *call, replies chan driver.Delivery) (Resp, error) {
	var zero Resp
	select {
	case d := <-replies:
		return r.answer(d)
	case <-dctx.Done():
		return zero, r.failed(ctx, dctx, c, nil)
	case <-r.done:
		return zero, ErrRequesterClosed
	}
}

// envelope is the caller's options, then what Do owns: the correlation id,
// the reply address and the deadline.
func (r *Requester[Req, Resp]) envelope(opts []acemq.EnvelopeOption, c *call) []acemq.EnvelopeOption {
	address := r.replies.Address()
	return append(opts[:len(opts):len(opts)],
		acemq.CorrelationID(c.id), acemq.ReplyTo(address),
		acemq.Header(HeaderReplyTo, address), acemq.Header(HeaderDeadline, c.deadline.UnixMilli()))
}

// send is the end of the request's publish path: it stamps the AMQP
// correlation-id and expiration and publishes on the reply channel.
func (r *Requester[Req, Resp]) send(ctx context.Context, exchange, key string, msg driver.Outbound) (acemq.PublishResult, error) {
	if c, ok := ctx.Value(callKey{}).(*call); ok {
		msg.CorrelationID = c.id
		msg.Headers[semconv.HeaderCorrelation] = c.id
		msg.Headers[HeaderReplyTo] = r.replies.Address() // the channel stamps the address it sends with
		msg.Expiration = fmt.Sprint(max(time.Until(c.deadline).Milliseconds(), 1))
	}
	return r.replies.Publish(ctx, exchange, key, msg)
}

// failed is the error of a call that ended without a reply: the caller's
// cancel, a timeout, or the publish error err.
func (r *Requester[Req, Resp]) failed(ctx, dctx context.Context, c *call, err error) error {
	if errors.Is(ctx.Err(), context.Canceled) {
		return ctx.Err()
	}
	if dctx.Err() != nil {
		return &TimeoutError{After: c.deadline.Sub(c.start), CorrelationID: c.id}
	}
	return err
}

func (r *Requester[Req, Resp]) isClosed() bool {
	select {
	case <-r.done:
		return true
	default:
		return false
	}
}

// onReply files a reply under its correlation id (the AMQP property, else
// x-acemq-correlation); one no call waits for is late and dropped.
func (r *Requester[Req, Resp]) onReply(d driver.Delivery) {
	id := d.CorrelationID
	if id == "" {
		id, _ = headerString(d.Headers, semconv.HeaderCorrelation)
	}
	if !r.pending.resolve(id, d) {
		r.late.Add(1)
	}
}

// answer turns a reply into Do's result.
func (r *Requester[Req, Resp]) answer(d driver.Delivery) (Resp, error) {
	var resp Resp
	if code, ok := headerString(d.Headers, HeaderErrorCode); ok && code != "" {
		return resp, r.declared(code)
	}
	if text, ok := headerString(d.Headers, HeaderError); ok {
		if e := r.namedIn(text); e != nil {
			return resp, e
		}
		return resp, &ResponderError{Text: text}
	}
	if err := acemq.DecodeFor(r.cfg.codec, d.ContentType, d.Body, &resp); err != nil {
		return resp, fmt.Errorf("acemq: cannot decode the reply %s to a %q request: %w", d.MessageID, r.key, err)
	}
	return resp, nil
}

// namedIn returns the declared error an acemq-error text without a code
// names as its class, or nil: "NotFound", or "NotFound: <text>" as the
// family's Python responder writes it (exception class, colon, text).
func (r *Requester[Req, Resp]) namedIn(text string) *DeclaredError {
	class, _, _ := strings.Cut(text, ":")
	return r.cfg.declared[class]
}

// declared returns the DeclaredErrors value of code, else a new one.
func (r *Requester[Req, Resp]) declared(code string) error {
	if e, ok := r.cfg.declared[code]; ok {
		return e
	}
	return NewError(code)
}
