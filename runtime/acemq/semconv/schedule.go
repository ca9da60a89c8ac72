package semconv

// The scheduler's bookkeeping headers (FAMILY-SPEC §2.3): written when a
// message is scheduled, carried from rung to rung and stripped before the
// message is delivered to its destination. Deliberately not x-acemq-*: the
// envelope strips that prefix on read.
const (
	// HeaderSchedulePrefix is the prefix every bookkeeping header shares; a
	// scheduler strips every header with it on delivery.
	HeaderSchedulePrefix = "x-schedule-"
	// HeaderScheduleExchange is the exchange the message is for.
	HeaderScheduleExchange = "x-schedule-exchange"
	// HeaderScheduleRoutingKey is the routing key it is delivered with.
	HeaderScheduleRoutingKey = "x-schedule-routing-key"
	// HeaderScheduleDueAt is when it is due, integer epoch milliseconds.
	HeaderScheduleDueAt = "x-schedule-due-at"
	// HeaderScheduleContentType is the content type of the body, which
	// travels the ladder as application/octet-stream.
	HeaderScheduleContentType = "x-schedule-content-type"
	// HeaderScheduleID is the id a scheduled message is cancelled by
	// (acemq-gen's addition, under the family's prefix so that a family
	// scheduler carries it along and strips it on delivery).
	HeaderScheduleID = "x-schedule-id"
)

// HeaderDueAt is stamped on a delivered scheduled message: when it was due,
// RFC 3339 with milliseconds, UTC (acemq-gen's; like acemq-replayed-at, not
// reserved).
const HeaderDueAt = "acemq-due-at"

// MetricScheduleLateness records, in seconds, how long after it was due a
// scheduled message was delivered to its destination; labelled with
// LabelExchange and LabelRoutingKey of the destination.
const MetricScheduleLateness = "acemq.schedule.lateness"

// The schedule ladder's broker objects (FAMILY-SPEC §2.4): TTL rungs bound
// to ScheduleExchange, each dead-lettering into ScheduleDueQueue, where a
// scheduler moves a message to the next rung or, once due, to its
// destination; a destination that takes no message sets it aside to
// ScheduleDeadLetterQueue.
const (
	ScheduleExchange        = "acemq.schedule"
	ScheduleDueQueue        = "acemq.schedule.due"
	ScheduleDeadLetterQueue = ScheduleDueQueue + ".dlq"
	ScheduleRung1h          = ScheduleExchange + ".1h"
	ScheduleRung10m         = ScheduleExchange + ".10m"
	ScheduleRung1m          = ScheduleExchange + ".1m"
	ScheduleRung10s         = ScheduleExchange + ".10s"
	ScheduleRung1s          = ScheduleExchange + ".1s"
	// ScheduleCancelledPrefix starts the name of the empty durable queue
	// that marks a scheduled message cancelled: the prefix, then its id
	// (acemq-gen's, see docs/scheduling.md).
	ScheduleCancelledPrefix = ScheduleExchange + ".cancelled."
	// ScheduledMessageType is the envelope type the family's own
	// schedulers give a message they schedule.
	ScheduledMessageType = "ScheduledMessage"
)
