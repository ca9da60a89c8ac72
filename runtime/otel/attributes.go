package otel

import "go.opentelemetry.io/otel/attribute"

// The span attribute keys the family writes (FAMILY-SPEC §5.2).
const (
	AttrSystem          = attribute.Key("messaging.system")
	AttrDestination     = attribute.Key("messaging.destination.name")
	AttrOperation       = attribute.Key("messaging.operation")
	AttrMessageID       = attribute.Key("messaging.message.id")
	AttrConversationID  = attribute.Key("messaging.message.conversation_id")
	AttrRoutingKey      = attribute.Key("messaging.rabbitmq.destination.routing_key")
	AttrMessageType     = attribute.Key("messaging.acemq.message_type")
	AttrAttempt         = attribute.Key("messaging.acemq.attempt")
	AttrOutcome         = attribute.Key("messaging.acemq.outcome")
	AttrReason          = attribute.Key("messaging.acemq.reason")
	AttrNextAttempt     = attribute.Key("messaging.acemq.next_attempt")
	AttrDelayMillis     = attribute.Key("messaging.acemq.delay_ms")
	AttrSetAsideQueue   = attribute.Key("messaging.acemq.set_aside_queue")
	AttrSettledByAction = attribute.Key("messaging.acemq.action")
)

// The messaging.operation values.
const (
	OperationPublish = "publish"
	OperationProcess = "process"
)

// The span events the family records on a consume span.
const (
	EventMessageRetried      = "message.retried"
	EventMessageDeadLettered = "message.dead_lettered"
)

// DefaultSystem is the messaging.system attribute unless WithSystem says otherwise.
const DefaultSystem = "rabbitmq"
