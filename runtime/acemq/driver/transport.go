package driver

import "context"

// Transport is what a broker binding implements (the transport SPI). The
// connection, publishers and consumers use nothing else, so a Transport that
// passes the conformance suite in runtime/acemqtest behaves like RabbitMQ.
// Implementations must be safe for concurrent use.
type Transport interface {
	DeclareQueue(ctx context.Context, name string, spec QueueSpec) error
	DeclareExchange(ctx context.Context, name string, spec ExchangeSpec) error
	Bind(ctx context.Context, queue, exchange, key string) error
	// Publish sends one message and, when the transport confirms, waits for
	// the broker's confirm of that message only.
	Publish(ctx context.Context, exchange, key string, msg Outbound) (PublishResult, error)
	// Consume starts delivering messages of queue to deliver, which may be
	// called from several goroutines up to spec.Prefetch unsettled messages.
	Consume(ctx context.Context, queue string, spec ConsumeSpec, deliver func(Delivery)) (Subscription, error)
	Close() error
}

// QueueSpec describes a queue to declare. Args are the broker's x-arguments.
type QueueSpec struct {
	Durable    bool
	AutoDelete bool
	Exclusive  bool
	Args       map[string]any
}

// ExchangeSpec describes an exchange to declare. Kind is direct, topic,
// fanout or headers.
type ExchangeSpec struct {
	Kind       string
	Durable    bool
	AutoDelete bool
	Args       map[string]any
}

// ConsumeSpec describes a subscription: the number of unsettled deliveries
// the broker may hand out, the consumer tag and broker arguments.
//
// OnCancel, when set, is called at most once, from a goroutine of the
// transport, when the broker cancels the subscription on its own (its queue
// was deleted): the subscription then delivers nothing more, recovery does
// not resume it, and the caller decides whether to consume again (the
// engine's consumers redeclare the queue they own and consume again). Without
// OnCancel such a subscription just ends. A Cancel or Close by the caller
// never calls it.
//
// ResumeArgs, when set, gives the arguments each time the transport consumes
// again (recovery after a reconnection) instead of Args: a stream reader
// resumes after the last record it handled, not at its first position.
type ConsumeSpec struct {
	Prefetch   int
	Tag        string
	Args       map[string]any
	OnCancel   func(reason error)
	ResumeArgs func() map[string]any
}

// Acknowledger settles one delivery with the broker.
type Acknowledger interface {
	Ack() error
	// Nack returns the message to its queue when requeue is true, and drops
	// (or broker-dead-letters) it otherwise.
	Nack(requeue bool) error
}

// Ack acknowledges the delivery.
func (d Delivery) Ack() error { return d.Acker.Ack() }

// Nack rejects the delivery, returning it to the queue when requeue is true.
func (d Delivery) Nack(requeue bool) error { return d.Acker.Nack(requeue) }

// Subscription is a running Consume.
type Subscription interface {
	// Cancel stops new deliveries; deliveries already handed out can still
	// be settled.
	Cancel() error
	// Close releases the subscription; unsettled deliveries return to the queue.
	Close() error
}

// PublishResult is what the broker said about one published message.
// Confirmed is false when the transport publishes without confirms; Routed is
// false when a mandatory message reached no queue, with the broker's reason.
type PublishResult struct {
	MessageID    string
	Confirmed    bool
	Routed       bool
	ReturnReason string
}

// Outbound is a message as the transport publishes it.
type Outbound struct {
	Body        []byte
	ContentType string
	MessageID   string
	Headers     map[string]any
	ReplyTo     string
	// CorrelationID is the AMQP correlation-id property (request/reply only).
	CorrelationID string
	// Expiration is the AMQP per-message TTL in milliseconds, as a string; "" for none.
	Expiration string
	Persistent bool
	Mandatory  bool
}

// Delivery is one message as the transport received it.
type Delivery struct {
	Body          []byte
	ContentType   string
	Exchange      string
	RoutingKey    string
	MessageID     string
	ReplyTo       string
	CorrelationID string
	Expiration    string
	Headers       map[string]any
	Redelivered   bool
	Acker         Acknowledger
}
