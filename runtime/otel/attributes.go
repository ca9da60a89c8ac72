package otel

import "go.opentelemetry.io/otel/attribute"

// The span attribute keys of FAMILY-SPEC §5.2, on publish and process spans.
const (
	AttrSystem         = attribute.Key("messaging.system")                           // WithSystem, default rabbitmq
	AttrDestination    = attribute.Key("messaging.destination.name")                 // exchange, or queue through the default exchange
	AttrOperation      = attribute.Key("messaging.operation")                        // publish or process
	AttrMessageID      = attribute.Key("messaging.message.id")                       // Envelope.ID
	AttrConversationID = attribute.Key("messaging.message.conversation_id")          // Envelope.CorrelationID
	AttrRoutingKey     = attribute.Key("messaging.rabbitmq.destination.routing_key") // the routing key
	AttrMessageType    = attribute.Key("messaging.acemq.message_type")               // Envelope.Type
	AttrAttempt        = attribute.Key("messaging.acemq.attempt")                    // Envelope.Attempt, from 1
	AttrOutcome        = attribute.Key("messaging.acemq.outcome")                    // the counter's outcome label
)

// The attribute keys this package adds: on an ERROR publish span and on the
// span events, the reason; on a process span, the engine's action; on a
// message.retried event, the next attempt and the delay; on a
// message.dead_lettered event, the queue the message was moved to.
const (
	AttrReason        = attribute.Key("messaging.acemq.reason")
	AttrAction        = attribute.Key("messaging.acemq.action")
	AttrNextAttempt   = attribute.Key("messaging.acemq.next_attempt")
	AttrDelayMillis   = attribute.Key("messaging.acemq.delay_ms")
	AttrSetAsideQueue = attribute.Key("messaging.acemq.set_aside_queue")
)

// The messaging.operation values.
const (
	OperationPublish = "publish" // a publish span
	OperationProcess = "process" // a process span
	OperationRequest = "request" // a request span (Ask)
)

// The span events the family records on a process span (events, not spans).
const (
	EventMessageRetried      = "message.retried"       // the engine retries the message
	EventMessageDeadLettered = "message.dead_lettered" // dead-lettered or parked; outcome tells which
)

// DefaultSystem is the messaging.system attribute unless WithSystem says otherwise.
const DefaultSystem = "rabbitmq"
