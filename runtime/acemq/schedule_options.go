package acemq

import (
	"context"

	"github.com/acemq/acemq-gen/runtime/acemq/driver"

	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
	"github.com/acemq/acemq-gen/runtime/internal/schedule"
)

// ScheduleLadderOfType makes the connection declare the schedule ladder
// (Topology.ScheduleLadder) with queues of type qt: QueueClassic (the default, the
// family's) or QueueQuorum, replicated, so that scheduled messages survive
// the loss of a minority of a cluster's nodes. Every service and scheduler
// on a broker must choose alike: RabbitMQ refuses to redeclare a queue as
// another type (PRECONDITION_FAILED). Other types fail Connect.
func ScheduleLadderOfType(qt QueueType) ConnOption {
	return func(cfg *connConfig) error {
		if err := setAsideType(qt, "ScheduleLadderOfType"); err != nil {
			return err
		}
		if cfg.ext == nil {
			cfg.ext = map[any]any{}
		}
		cfg.ext[schedule.LadderType] = string(qt)
		return nil
	}
}

// scheduleLadderType is the connection's ladder type, classic by default.
func (c *Conn) scheduleLadderType() QueueType {
	if qt, ok := c.Extensions().Value(schedule.LadderType).(string); ok {
		return QueueType(qt)
	}
	return QueueClassic
}

// ScheduleLadder adds the schedule ladder with queues of type qt:
// QueueClassic, the family's (rungs acemq.schedule.1h, .10m, .1m, .10s, .1s
// with exactly x-message-ttl, x-dead-letter-exchange acemq.schedule and
// x-dead-letter-routing-key acemq.schedule.due; the due queue with no
// arguments), or QueueQuorum (the same plus x-queue-type quorum, and
// at-least-once dead-lettering on the rungs). All are bound to the direct
// exchange acemq.schedule on their own names (docs/scheduling.md).
func (t *Topology) ScheduleLadder(qt QueueType) *Topology {
	t.Exchange(semconv.ScheduleExchange, "direct")
	for _, rung := range schedule.Rungs {
		t.Queue(rung.Queue, scheduleRungOptions(rung, qt)...).Binding(rung.Queue, semconv.ScheduleExchange, rung.Queue)
	}
	due := semconv.ScheduleDueQueue
	return t.Queue(due, OfType(qt)).Binding(due, semconv.ScheduleExchange, due)
}

// scheduleRungOptions are the options a rung of type qt is declared with.
func scheduleRungOptions(rung schedule.Rung, qt QueueType) []QueueOption {
	opts := []QueueOption{OfType(qt)}
	for name, value := range schedule.RungArgs(rung) {
		opts = append(opts, QueueArg(name, value))
	}
	if qt == QueueQuorum {
		opts = append(opts, AtLeastOnceDeadLettering())
	}
	return opts
}

// declareScheduleLadder declares the connection's ladder once: again only
// when the due queue was not declared through the connection. A transport
// that is no broker (no dead-lettering, such as outbox.Within's) declares
// nothing: what it publishes reaches the ladder a scheduler declared.
func (c *Conn) declareScheduleLadder(ctx context.Context) error {
	if !c.Supports(driver.CapabilityDeadLettering) {
		return nil
	}
	if _, ok := c.declared.owned(semconv.ScheduleDueQueue); ok {
		return nil
	}
	if err := NewTopology().ScheduleLadder(c.scheduleLadderType()).Apply(ctx, c); err != nil {
		return wrapf(err, "acemq: cannot declare the schedule ladder")
	}
	return nil
}
