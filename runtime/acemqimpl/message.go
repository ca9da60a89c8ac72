package acemqimpl

import (
	"context"
	"io"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

// MessageSpec is what a contract says of one event or command whose payload
// is T, and what its generated functions delegate to. An event's spec has no
// Queue: each subscribing service consumes it on its own queue,
// <service>.<RoutingKey> (SubscriberQueue). A command's Queue is the
// queue its owner consumes. Build one as a composite literal; it is
// read-only afterwards and safe for concurrent use.
type MessageSpec[T any] struct {
	// Exchange is the domain's topic exchange; RoutingKey the message's key on it.
	Exchange, RoutingKey string
	// Queue is a command's owning queue; "" for an event.
	Queue string
	// Codec builds the contract's codec for a connection.
	Codec CodecBuilder
	// Retry is the contract's retry policy, for the consumer and its retry queues.
	Retry acemq.RetryPolicy
	// Version is the payload's schema version; 0 and 1 publish without one.
	Version int
	// Headers are the contract's header rules (required and typed headers).
	Headers []acemq.HeaderRule
	// Mandatory makes a publish that reaches no queue fail (acemq.ErrUnroutable).
	Mandatory bool
	// Queues are the contract's queue keys; they apply to every queue the
	// message is consumed from (a command's Queue, each subscriber's queue of
	// an event) and its set-aside queues. The zero value: none.
	Queues QueueKeys
}

// Publisher returns the message's publisher on conn: the contract's codec,
// header rules, mandatory flag and schema version apply.
func (s *MessageSpec[T]) Publisher(conn *acemq.Conn) *acemq.Publisher[T] {
	opts := []acemq.PublisherOption[T]{PublishWithFunc[T](s.Codec)}
	if len(s.Headers) > 0 {
		opts = append(opts, PublishHeaderRules[T](s.Headers...))
	}
	if s.Mandatory {
		opts = append(opts, acemq.Mandatory[T]())
	}
	if s.Version > 1 {
		opts = append(opts, acemq.WithEnvelope[T](acemq.SchemaVersion(s.Version)))
	}
	return acemq.NewPublisher[T](conn, s.Exchange, s.RoutingKey, opts...)
}

// QueueOf returns the queue on which service consumes the event,
// <service>.<RoutingKey>, or SubscriberQueue's error for an empty
// service or one a queue name cannot hold.
func (s *MessageSpec[T]) QueueOf(service string) (string, error) {
	return SubscriberQueue(service, s.RoutingKey)
}

// Subscribe declares the event's queue for service (QueueOf), with its
// dead-letter and retry queues, bound to Exchange, and delivers each event
// to h. The contract's codec, retry policy and header rules apply before
// opts, so opts win.
func (s *MessageSpec[T]) Subscribe(ctx context.Context, conn *acemq.Conn, service string, h acemq.Handler[T],
	opts ...acemq.ConsumeOption) (*acemq.Consumer, error) {
	queue, err := s.QueueOf(service)
	if err != nil {
		return nil, err
	}
	t := s.AddTo(acemq.NewTopology().Exchange(s.Exchange, "topic"), queue)
	return DeclareAndConsume(ctx, conn, t, queue, h, s.consumeOptions(conn, opts)...)
}

// Consume declares the command's Queue (Declare) and delivers each command
// to h, with the options Subscribe applies.
func (s *MessageSpec[T]) Consume(ctx context.Context, conn *acemq.Conn, h acemq.Handler[T],
	opts ...acemq.ConsumeOption) (*acemq.Consumer, error) {
	t := s.Declare(acemq.NewTopology().Exchange(s.Exchange, "topic"))
	return DeclareAndConsume(ctx, conn, t, s.Queue, h, s.consumeOptions(conn, opts)...)
}

// Subscriber is Subscribe as a start function of StartServer.
func (s *MessageSpec[T]) Subscriber(conn *acemq.Conn, service string, h acemq.Handler[T],
	opts ...acemq.ConsumeOption) func(context.Context) (io.Closer, error) {
	return func(ctx context.Context) (io.Closer, error) { return s.Subscribe(ctx, conn, service, h, opts...) }
}

// Consumer is Consume as a start function of StartServer.
func (s *MessageSpec[T]) Consumer(conn *acemq.Conn, h acemq.Handler[T],
	opts ...acemq.ConsumeOption) func(context.Context) (io.Closer, error) {
	return func(ctx context.Context) (io.Closer, error) { return s.Consume(ctx, conn, h, opts...) }
}

// consumeOptions puts the contract's consume options before opts: the
// codec, the retry policy, the message's type (its routing key, what the
// family's publishers write as x-acemq-type: a message of another type is
// parked), then the header rules.
func (s *MessageSpec[T]) consumeOptions(conn *acemq.Conn, opts []acemq.ConsumeOption) []acemq.ConsumeOption {
	own := []acemq.ConsumeOption{ConsumeWithFunc(conn, s.Codec), acemq.RetryWith(s.Retry)}
	if s.RoutingKey != "" {
		own = append(own, acemq.ExpectMessageTypes(s.RoutingKey))
	}
	if len(s.Headers) > 0 {
		own = append(own, ConsumeHeaderRules(s.Headers...))
	}
	if o := s.Queues.consumeOption(); o != nil {
		own = append(own, o)
	}
	return append(own, opts...)
}

// AddTo adds queue to t as a consumer queue of the message: with its
// dead-letter queue and the retry queues of Retry, bound to Exchange with
// RoutingKey. It returns t.
func (s *MessageSpec[T]) AddTo(t *acemq.Topology, queue string) *acemq.Topology {
	return s.Queues.deadLetters(t.Queue(queue, s.Queues.Options()...), queue).Retries(queue, s.Retry).
		Binding(queue, s.Exchange, s.RoutingKey)
}

// Declare adds a command's Queue to t (AddTo); it is how the domain's
// Topology holds its commands.
func (s *MessageSpec[T]) Declare(t *acemq.Topology) *acemq.Topology { return s.AddTo(t, s.Queue) }

// Rules is the ConnOption that enforces Headers on every publisher of T and
// every delivery of the message (acemqimpl.HeaderRulesOf, the envelope's type
// being RoutingKey); nil, which ConnOptions skips, when there are none.
func (s *MessageSpec[T]) Rules() acemq.ConnOption {
	if len(s.Headers) == 0 {
		return nil
	}
	return HeaderRulesOf[T](s.RoutingKey, s.Headers...)
}
