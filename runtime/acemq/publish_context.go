package acemq

import "context"

// PublishInterceptor runs on every message a Publisher sends, before the
// codec. It may change anything on c; an error it returns stops the publish
// and is returned to the caller unwrapped. It runs on the publishing
// goroutine (under SendAll, on up to GOMAXPROCS goroutines at once, in no
// particular order), so state it keeps must be safe for concurrent use.
type PublishInterceptor func(ctx context.Context, c *PublishContext) error

// PublishContext is the mutable description of a message being published.
// Payload must keep the publisher's type; replacing it with another type
// fails the publish, naming both types.
type PublishContext struct {
	Exchange   string
	RoutingKey string
	Envelope   *Envelope
	Payload    any
	hooks      []func(context.Context, PublishOutcome)
	err        error
}

// PublishOutcome is what became of a publish: the broker's result, or the
// error the caller gets (nil once the broker confirmed or, without confirms,
// accepted it).
type PublishOutcome struct {
	Result     PublishResult
	Err        error
	Envelope   Envelope
	Exchange   string
	RoutingKey string
}

// SetHeader sets an application header on the envelope, creating the map if
// needed. A name in the reserved x-acemq- namespace makes the publish fail
// with ReservedHeaderError instead of being dropped silently.
func (c *PublishContext) SetHeader(name string, value any) {
	if isReserved(name) {
		if c.err == nil {
			c.err = ReservedHeaderError(name)
		}
		return
	}
	if c.Envelope.Headers == nil {
		c.Envelope.Headers = map[string]any{}
	}
	c.Envelope.Headers[name] = value
}

// OnOutcome leaves fn to run once the publish's result is known, also when a
// later interceptor refused it. Hooks run last registered first, before
// Send returns; a panicking hook is recovered and logged. A nil fn is ignored.
func (c *PublishContext) OnOutcome(fn func(context.Context, PublishOutcome)) {
	if fn != nil {
		c.hooks = append(c.hooks, fn)
	}
}

// hookRoom is how many outcome hooks a message holds without allocating:
// the interceptors' hooks go into an array inside the message's own
// allocation until there are more than this.
const hookRoom = 8

// ConsumeInterceptor runs on every delivery, before the body is decoded. It
// may edit the envelope (the handler sees the edits) and rewrite Body and
// ContentType (what is decoded is what it leaves there). An error it returns
// dead-letters the message with the reason "an interceptor refused it: ...";
// so does a panic. It runs on the consumer's worker goroutines.
type ConsumeInterceptor func(ctx context.Context, c *ConsumeContext) error

// ConsumeContext is the description of a delivery given to consume
// interceptors.
type ConsumeContext struct {
	Queue       string
	Envelope    *Envelope
	Body        []byte
	ContentType string
	Redelivered bool
	hooks       []func(context.Context, Settlement)
	stream      StreamRecord // the record's place in its stream (stream_read.go)
}

// OnOutcome leaves fn to run once the engine has settled the message, also
// when a later interceptor refused it. Hooks run last registered first,
// before the settlement is applied; a panicking hook is recovered and logged.
// A nil fn is ignored.
func (c *ConsumeContext) OnOutcome(fn func(context.Context, Settlement)) {
	if fn != nil {
		c.hooks = append(c.hooks, fn)
	}
}
