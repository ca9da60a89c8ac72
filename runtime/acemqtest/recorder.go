package acemqtest

import (
	"bytes"
	"context"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// Record is one publish the Recorder saw: where it went, the message as the
// transport was given it, and what the transport answered.
type Record struct {
	// Exchange is the exchange published to ("" for the default exchange).
	Exchange string
	// RoutingKey is the routing key published with.
	RoutingKey string
	// Outbound is the message, copied when the publish returned (body and
	// headers are the Recorder's own copies).
	Outbound driver.Outbound
	// Result is what the transport returned; zero when Err is set.
	Result acemq.PublishResult
	// Err is the transport's error, nil when the publish succeeded.
	Err error
	// At is when the publish returned (virtual time under Run).
	At time.Time
}

// Recorder is an driver.Transport that records every publish before handing
// back the answer of the transport it wraps, so a test can assert what its
// code published (see Published, ExpectPublished, ExpectNothingPublished).
// Everything else (declarations, bindings, consuming, closing) is passed to
// the wrapped transport unchanged. Publishes sent through a reply channel
// (OpenReplies, used by requesters) are recorded too. Safe for concurrent
// use.
type Recorder struct {
	inner    driver.Transport
	mu       sync.Mutex
	records  []Record
	next     uint64                   // the id of the next publish under way
	underway map[uint64]chan struct{} // publishes not yet recorded, closed once they are
}

// NewRecorder returns a Recorder wrapping inner, such as a memory://
// transport; give it to acemq.NewConn. A nil inner panics (a programming
// error). Connect does all of this for a private memory:// broker.
func NewRecorder(inner driver.Transport) *Recorder {
	if inner == nil {
		panic("acemqtest: NewRecorder was given a nil transport")
	}
	return &Recorder{inner: inner}
}

// Published returns a copy of every publish recorded since the Recorder was
// made or last Reset, in the order their outcomes became known, failed ones
// included: a SendAll's in payload order (it writes through PublishAsync and
// waits in payload order), publishes from several goroutines in the order
// they happened to finish. It first waits for the publishes already under
// way when it is called: a reply can reach its caller before the publish
// that carried it has returned, and that publish is then in the list. Safe
// for concurrent use.
func (r *Recorder) Published() []Record {
	r.awaitUnderway()
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]Record, len(r.records))
	for i, rec := range r.records {
		out[i] = rec
		out[i].Outbound = cloneOutbound(rec.Outbound)
	}
	return out
}

// Reset forgets every recorded publish. Safe for concurrent use.
func (r *Recorder) Reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.records = nil
}

// Publish publishes msg through the wrapped transport and records it with
// the transport's answer, which it returns unchanged.
func (r *Recorder) Publish(ctx context.Context, exchange, key string, msg driver.Outbound) (acemq.PublishResult, error) {
	done := r.begin()
	defer done()
	res, err := r.inner.Publish(ctx, exchange, key, msg)
	r.record(exchange, key, msg, res, err)
	return res, err
}

// begin marks a publish as under way until the returned func is called,
// after the publish is recorded.
func (r *Recorder) begin() func() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.underway == nil {
		r.underway = map[uint64]chan struct{}{}
	}
	id, ch := r.next, make(chan struct{})
	r.next++
	r.underway[id] = ch
	return func() {
		r.mu.Lock()
		delete(r.underway, id)
		r.mu.Unlock()
		close(ch)
	}
}

// awaitUnderway waits for the publishes under way now (not for those begun
// later, so publishing goroutines cannot keep it waiting).
func (r *Recorder) awaitUnderway() {
	r.mu.Lock()
	waits := make([]chan struct{}, 0, len(r.underway))
	for _, ch := range r.underway {
		waits = append(waits, ch)
	}
	r.mu.Unlock()
	for _, ch := range waits {
		<-ch
	}
}

// record appends one publish.
func (r *Recorder) record(exchange, key string, msg driver.Outbound, res acemq.PublishResult, err error) {
	rec := Record{Exchange: exchange, RoutingKey: key, Outbound: cloneOutbound(msg), Result: res, Err: err, At: time.Now()}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.records = append(r.records, rec)
}

// cloneOutbound copies msg's body and headers map (header values are shared).
func cloneOutbound(msg driver.Outbound) driver.Outbound {
	msg.Body = bytes.Clone(msg.Body)
	msg.Headers = maps.Clone(msg.Headers)
	return msg
}

// DeclareQueue passes the declaration to the wrapped transport.
func (r *Recorder) DeclareQueue(ctx context.Context, name string, spec driver.QueueSpec) error {
	return r.inner.DeclareQueue(ctx, name, spec)
}

// DeclareExchange passes the declaration to the wrapped transport.
func (r *Recorder) DeclareExchange(ctx context.Context, name string, spec driver.ExchangeSpec) error {
	return r.inner.DeclareExchange(ctx, name, spec)
}

// Bind passes the binding to the wrapped transport.
func (r *Recorder) Bind(ctx context.Context, queue, exchange, key string) error {
	return r.inner.Bind(ctx, queue, exchange, key)
}

// Consume passes the subscription to the wrapped transport; deliveries are
// not recorded.
func (r *Recorder) Consume(ctx context.Context, queue string, spec driver.ConsumeSpec, deliver func(driver.Delivery)) (driver.Subscription, error) {
	return r.inner.Consume(ctx, queue, spec, deliver)
}

// Close closes the wrapped transport. The records stay readable.
func (r *Recorder) Close() error { return r.inner.Close() }

// routedTo returns the successful publishes recorded with routing key key.
func (r *Recorder) routedTo(key string) []Record {
	return slices.DeleteFunc(r.Published(), func(rec Record) bool {
		return rec.Err != nil || rec.RoutingKey != key
	})
}

var _ driver.Transport = (*Recorder)(nil)
