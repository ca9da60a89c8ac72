// Package schedule is the machinery the schedule ladder's two sides share:
// runtime/acemq, which puts a message on the ladder (Publisher.SendAt), and
// runtime/patterns, whose Scheduler moves it down the ladder and delivers
// it. The names are semconv's; this package holds the rungs' waits and
// arguments, hop selection and the bookkeeping headers' reading and
// writing.
package schedule

import (
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq/driver"
	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
)

// Prefetch is how many due messages a scheduler holds at once (the family's 50).
const Prefetch = 50

// Rung is one rung of the ladder: its queue and the wait it holds a message.
type Rung struct {
	Queue string
	Wait  time.Duration
}

// Rungs is the ladder, longest first.
var Rungs = []Rung{
	{semconv.ScheduleRung1h, time.Hour},
	{semconv.ScheduleRung10m, 10 * time.Minute},
	{semconv.ScheduleRung1m, time.Minute},
	{semconv.ScheduleRung10s, 10 * time.Second},
	{semconv.ScheduleRung1s, time.Second},
}

// Hop returns the queue a message with remaining time to wait goes to next:
// the largest rung that does not overshoot, or the due queue when remaining
// is shorter than every rung (a scheduler then waits out the rest).
func Hop(remaining time.Duration) string {
	for _, r := range Rungs {
		if r.Wait <= remaining {
			return r.Queue
		}
	}
	return semconv.ScheduleDueQueue
}

// RungArgs returns a rung's broker arguments: exactly the family's three
// (x-message-ttl in ms, x-dead-letter-exchange acemq.schedule,
// x-dead-letter-routing-key acemq.schedule.due). The map is new each call.
func RungArgs(r Rung) map[string]any {
	return map[string]any{
		driver.ArgMessageTTL:           r.Wait.Milliseconds(),
		driver.ArgDeadLetterExchange:   semconv.ScheduleExchange,
		driver.ArgDeadLetterRoutingKey: semconv.ScheduleDueQueue,
	}
}

// LadderType is the key under which a connection's extensions hold the
// ladder's queue type (acemq.ScheduleLadderOfType), as a string.
var LadderType = new(struct{ ladder byte })

// CancelMarker names the queue whose existence marks id cancelled.
func CancelMarker(id string) string { return semconv.ScheduleCancelledPrefix + id }
