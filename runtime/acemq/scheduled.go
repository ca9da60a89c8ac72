package acemq

import (
	"context"
	"errors"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq/driver"
	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
	"github.com/acemq/acemq-gen/runtime/internal/schedule"
)

// Scheduled is the handle of a message put on the schedule ladder by
// Publisher.SendAfter or SendAt.
type Scheduled struct {
	id  string
	due time.Time
}

// ID returns the id CancelScheduled cancels the message by: its envelope ID.
func (s *Scheduled) ID() string { return s.id }

// DueAt returns when the message is due, to the millisecond.
func (s *Scheduled) DueAt() time.Time { return s.due }

// SendAfter is SendAt(ctx, time.Now().Add(d), payload, opts...).
func (p *Publisher[T]) SendAfter(ctx context.Context, d time.Duration, payload T, opts ...EnvelopeOption) (*Scheduled, error) {
	return p.SendAt(ctx, time.Now().Add(d), payload, opts...)
}

// SendAt publishes payload to be delivered to the publisher's exchange and
// routing key at t, through the schedule ladder (the connection declares it
// on first use; patterns.NewScheduler delivers it). The message is built as
// Send builds it, when it is scheduled: envelope, publish interceptors
// (which see the final destination), header rules, codec. It waits on the
// ladder mandatory and persistent, with the family's x-schedule-* headers,
// and is delivered with its own envelope and content type, the x-schedule-*
// headers stripped and acemq-due-at added. A t that is not after now (a
// negative delay, a time in the past) is not an error: the message is sent
// at once, exactly as Send sends it. A ladder that takes no message
// returns a *PublishFailedError; a destination that takes none is found
// only when the message is due (it is then set aside to
// acemq.schedule.due.dlq).
func (p *Publisher[T]) SendAt(ctx context.Context, t time.Time, payload T, opts ...EnvelopeOption) (*Scheduled, error) {
	o := &outgoing{headers: map[string]any{}} // not recycled: the ladder's stamp writes its own table
	if err := p.initEnvelope(&o.env, o.headers, opts); err != nil {
		return nil, err
	}
	s := &Scheduled{id: o.env.ID, due: time.UnixMilli(t.UnixMilli())}
	p.prepareInto(ctx, payload, o)
	switch {
	case o.err != nil:
	case !s.due.After(time.Now()):
		p.transmit(ctx, o)
	default:
		o.err = p.conn.declareScheduleLadder(ctx)
		if o.err == nil {
			o.res, o.err = p.conn.putOnLadder(ctx, &o.pc, o.out, s.due)
		}
	}
	p.finish(ctx, o)
	return s, o.err
}

// putOnLadder sends out, bound for pc's destination at due, to its first
// rung (or the due queue), confirmed and mandatory.
func (c *Conn) putOnLadder(ctx context.Context, pc *PublishContext, out driver.Outbound, due time.Time) (PublishResult, error) {
	ticket := schedule.Ticket{ID: pc.Envelope.ID, Exchange: pc.Exchange, RoutingKey: pc.RoutingKey, DueAt: due, ContentType: out.ContentType}
	ticket.Stamp(out.Headers)
	out.ContentType, out.Persistent, out.Mandatory = BytesCodec{}.ContentType(), true, true
	hop := schedule.Hop(time.Until(due))
	res, err := c.transport.Publish(ctx, semconv.ScheduleExchange, hop, out)
	if err == nil && !res.Routed {
		err = returnReason(res.ReturnReason)
		return res, &PublishFailedError{MessageID: out.MessageID, Exchange: semconv.ScheduleExchange, RoutingKey: hop, Unroutable: true, Err: err}
	}
	if err != nil {
		return res, &PublishFailedError{MessageID: out.MessageID, Exchange: semconv.ScheduleExchange, RoutingKey: hop, Err: err}
	}
	return res, nil
}

// scheduleCancelKeep is how long a cancellation is kept on the broker once
// nothing looks at it (the marker queue's x-expires): a scheduler looks at
// it, and deletes it, when the message next passes the due queue, at
// least once an hour while a scheduler runs.
const scheduleCancelKeep = 7 * 24 * time.Hour

// CancelScheduled cancels the scheduled message with id (Scheduled.ID): a
// scheduler that sees it on the ladder from then on drops it, never
// delivering it. The cancellation is a durable, empty queue named
// acemq.schedule.cancelled.{id}, of the ladder's type, on the broker: it
// survives a restart of this process and of the schedulers, and is deleted
// by the scheduler that drops the message, or by the broker after 7 days
// unused. Cancelling a message already delivered, or an unknown id, is not
// an error and has no effect. An empty id is refused.
func CancelScheduled(ctx context.Context, conn *Conn, id string) error {
	if id == "" {
		return errors.New("acemq: CancelScheduled needs the id of a scheduled message")
	}
	err := conn.DeclareQueue(ctx, schedule.CancelMarker(id), OfType(conn.scheduleLadderType()),
		QueueArg(driver.ArgExpires, scheduleCancelKeep.Milliseconds()))
	if err != nil {
		return wrapf(err, "acemq: cannot cancel scheduled message %s", id)
	}
	return nil
}
