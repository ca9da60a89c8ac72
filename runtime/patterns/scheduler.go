package patterns

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
	"github.com/acemq/acemq-gen/runtime/internal/schedule"
)

// Scheduler is the control consumer of the schedule ladder (FAMILY-SPEC
// §1.10, §2.4): it reads acemq.schedule.due, where a rung dead-letters a
// message whose wait is over, and either puts the message on the largest
// rung that does not overshoot what is left, or waits out the last second
// and delivers it to its destination with the x-schedule-* headers
// stripped and acemq-due-at stamped. Every hop is mandatory and confirmed,
// and the copy it came from is acknowledged only after that confirm: a
// crash in between delivers the message twice, never zero times. A
// destination that takes no message sets the message aside to
// acemq.schedule.due.dlq with the broker's reason; a cancelled message
// (acemq.CancelScheduled) is dropped. Any number of processes may run one
// on a broker. It moves messages scheduled by the family's libraries in
// other languages too.
type Scheduler struct {
	conn      *acemq.Conn
	due       *acemq.Consumer
	hops      atomic.Int64
	delivered atomic.Int64
	cancelled atomic.Int64
}

// NewScheduler declares the connection's ladder (Topology.ScheduleLadder of
// its acemq.ScheduleLadderOfType) and starts consuming acemq.schedule.due,
// holding up to 50 messages at once, until Close or ctx ends.
func NewScheduler(ctx context.Context, conn *acemq.Conn, opts ...acemq.ConsumeOption) (*Scheduler, error) {
	if conn == nil {
		return nil, errors.New("acemq: NewScheduler was given no connection")
	}
	if !conn.Supports(driver.CapabilityPublisherConfirms) {
		return nil, errNoConfirms
	}
	qt, _ := conn.Extensions().Value(schedule.LadderType).(string)
	if qt == "" {
		qt = string(acemq.QueueClassic)
	}
	if err := acemq.NewTopology().ScheduleLadder(acemq.QueueType(qt)).Apply(ctx, conn); err != nil {
		return nil, fmt.Errorf("acemq: cannot declare the schedule ladder: %w", err)
	}
	s := &Scheduler{conn: conn}
	base := []acemq.ConsumeOption{acemq.ConsumeWith(acemq.BytesCodec{}), acemq.Prefetch(schedule.Prefetch),
		acemq.Concurrency(schedule.Prefetch), acemq.RetryWith(acemq.NoRetry())}
	due, err := acemq.Consume(ctx, conn, semconv.ScheduleDueQueue, s.handle, append(base, opts...)...)
	if err != nil {
		return nil, err
	}
	s.due = due
	return s, nil
}

// Close stops consuming; messages it held return to acemq.schedule.due for
// another scheduler.
func (s *Scheduler) Close() error { return s.due.Close() }

// Hops returns how many times this scheduler moved a message to a rung.
func (s *Scheduler) Hops() int64 { return s.hops.Load() }

// Delivered returns how many messages this scheduler delivered.
func (s *Scheduler) Delivered() int64 { return s.delivered.Load() }

// Cancelled returns how many cancelled messages this scheduler dropped.
func (s *Scheduler) Cancelled() int64 { return s.cancelled.Load() }

// errNoConfirms refuses a connection without publisher confirms: a hop is
// acknowledged only after the next one's confirm.
var errNoConfirms = errors.New("acemq: NewScheduler needs a connection with publisher confirms: " +
	"it acknowledges a scheduled message only once the broker confirmed its next hop")

// errNotScheduled sets aside a message on the due queue that is not a
// scheduled one.
var errNotScheduled = errors.New("acemq: a message reached acemq.schedule.due without the x-schedule-exchange, " +
	"x-schedule-routing-key and x-schedule-due-at headers of a scheduled message")

// handle moves, delivers or drops one message of the due queue.
func (s *Scheduler) handle(ctx context.Context, m acemq.Message[[]byte]) acemq.Ack {
	ticket, ok := schedule.Read(m.Envelope.Headers)
	if !ok {
		return acemq.Reject(errNotScheduled)
	}
	if dropped, err := s.dropIfCancelled(ctx, ticket.ID); err != nil || dropped {
		return settle(err)
	}
	if remaining := time.Until(ticket.DueAt); schedule.Hop(remaining) != semconv.ScheduleDueQueue {
		return settle(s.hop(ctx, m, schedule.Hop(remaining)))
	}
	if !sleep(ctx, time.Until(ticket.DueAt)) {
		return acemq.InProgress(0)
	}
	return settle(s.deliver(ctx, m, ticket))
}

// settle is Accept for nil; for a hop that reached no queue or that the
// broker refused (a destination exchange deleted: 404, which sending again
// would only repeat, closing the channel each time), a dead letter
// to acemq.schedule.due.dlq (Retry(Fatal): outcome dead_lettered, as
// FAMILY-SPEC's table has a library hop's, not a handler's rejected); and a
// later try, the message unchanged, for any other failure.
func settle(err error) acemq.Ack {
	switch {
	case err == nil:
		return acemq.Accept()
	case errors.Is(err, acemq.ErrUnroutable), errors.Is(err, acemq.ErrBrokerRefused):
		return acemq.Retry(acemq.Fatal(err))
	}
	return acemq.InProgress(time.Second)
}

// sleep waits d, reporting false when ctx ends first.
func sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
