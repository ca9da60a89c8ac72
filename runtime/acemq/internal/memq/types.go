package memq

import "github.com/acemq/acemq-gen/runtime/acemq/driver"

// The queue arguments the broker reads, in RabbitMQ's words.
const (
	ArgQueueType            = "x-queue-type"
	ArgDeadLetterExchange   = "x-dead-letter-exchange"
	ArgDeadLetterRoutingKey = "x-dead-letter-routing-key"
	ArgMessageTTL           = "x-message-ttl"
	// QueueQuorum and QueueStream are values of ArgQueueType.
	QueueQuorum = "quorum"
	QueueStream = "stream"
)

// QueueSpec and ExchangeSpec are how a queue and an exchange are declared:
// the transport SPI's own declarations, which the memory broker reads as
// RabbitMQ does.
type (
	QueueSpec    = driver.QueueSpec
	ExchangeSpec = driver.ExchangeSpec
)

// ConsumeSpec is how a subscription consumes: at most Prefetch unsettled
// deliveries (0 = unlimited); Args are consumer arguments (x-priority).
// OnCancel, when set, is called once, on a goroutine of its own, when the
// broker cancels the subscription because its queue was deleted (RabbitMQ's
// basic.cancel); never for Cancel or Close.
type ConsumeSpec struct {
	Prefetch int
	Args     map[string]any
	OnCancel func()
}

// Message is a message as published. The broker keeps its own copy of
// Headers, converted as RabbitMQ hands them back.
type Message struct {
	Body          []byte
	ContentType   string
	MessageID     string
	Headers       map[string]any
	ReplyTo       string
	CorrelationID string
	// Expiration is a per-message TTL in whole milliseconds; "" is none.
	Expiration string
}

// Delivery is a message as a consumer receives it. Headers is the
// delivery's own map. Acker settles it; a pulled delivery is settled
// already and its Acker does nothing.
type Delivery struct {
	Message
	Exchange    string
	RoutingKey  string
	Redelivered bool
	Acker       Acker
}

// Acker settles one delivery. Safe for concurrent use.
type Acker interface {
	// Ack settles the delivery; settling one twice is PRECONDITION_FAILED.
	Ack() error
	// Nack returns the delivery to its queue when requeue is true and
	// dead-letters it (or drops it) otherwise.
	Nack(requeue bool) error
}

// Published is what became of a published message.
type Published struct {
	// Routed reports whether the message reached a queue.
	Routed bool
	// RefusedBy names the first queue that refused it for being full
	// (x-overflow reject-publish or reject-publish-dlx); "" when none did.
	RefusedBy string
	// Overflow is RefusedBy's x-overflow.
	Overflow string
}
