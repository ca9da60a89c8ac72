package semconv

// Labels tag a metric sample, e.g. {"queue": "orders", "outcome": "acked"}.
type Labels map[string]string

// The family's metric names (FAMILY-SPEC §5.1).
const (
	MetricPublishTotal      = "acemq.publish.total"
	MetricPublishDuration   = "acemq.publish.duration"
	MetricConsumeTotal      = "acemq.consume.total"
	MetricConsumeDuration   = "acemq.consume.duration"
	MetricConsumeInFlight   = "acemq.consume.in.flight"
	MetricRetriedTotal      = "acemq.messages.retried.total"
	MetricDeadLetteredTotal = "acemq.messages.dead.lettered.total"
	MetricSetAsideFailed    = "acemq.messages.set.aside.failed"
	MetricRetryRungMissing  = "acemq.retry.rung.missing"
	// MetricStreamGap counts the records a stream reader lost to the
	// stream's retention (it asked for offsets the stream no longer held).
	MetricStreamGap       = "acemq.stream.gap"
	MetricRequestTotal    = "acemq.request.total"
	MetricRequestDuration = "acemq.request.duration"
)

// The family's label names.
const (
	LabelQueue      = "queue"
	LabelOutcome    = "outcome"
	LabelExchange   = "exchange"
	LabelRoutingKey = "routing.key"
	LabelTarget     = "target"
	LabelRung       = "rung"
)

// Publish outcomes, the outcome label of MetricPublishTotal.
const (
	PublishConfirmed  = "confirmed"
	PublishPublished  = "published"
	PublishUnroutable = "unroutable"
	PublishFailed     = "failed"
)

// Settlement outcomes: the family's acemq.consume.total outcome tag.
const (
	OutcomeAcked        string = "acked"
	OutcomeRetried      string = "retried"
	OutcomeRejected     string = "rejected"
	OutcomeDeadLettered string = "dead_lettered"
	OutcomeParked       string = "parked"
	OutcomeInProgress   string = "in_progress"
	// OutcomeKept is acemq.ActionKept's outcome.
	OutcomeKept string = "kept"
)
