package acemqtest

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
	"github.com/acemq/acemq-gen/runtime/internal/schedule"
)

// work is one piece of work in flight: a handler running, a retry or a
// scheduled message waiting, an RPC unanswered.
type work struct {
	what      string
	messageID string
	due       time.Time // when a wait ends; zero for a running handler
}

// pending lists the work in flight now.
func (h *Harness) pending() []work {
	records := h.rec.Published()
	out := h.trace.inFlight(h, h.trace.origin(h.Virtual()))
	out = append(out, scheduledPending(records, h.trace.ladderDone())...)
	return append(out, rpcPending(records, time.Now())...)
}

// inFlight is the handlers running and the retries waiting.
// origin is the trace's origin (tracker.origin), for the times it names.
func (tr *tracker) inFlight(h *Harness, origin time.Duration) []work {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	var out []work
	for _, e := range tr.running {
		out = append(out, work{what: fmt.Sprintf("a handler on %s is still running message %s (%s), attempt %d, since +%s",
			e.Queue, e.MessageID, e.Type, e.Attempt, h.virtual(e.At-origin)), messageID: e.MessageID})
	}
	for _, e := range tr.waiting {
		due := tr.start.Add(e.At + e.Delay)
		out = append(out, work{what: fmt.Sprintf("message %s (%s) on %s waits for attempt %d, due at +%s (%s)",
			e.MessageID, e.Type, e.Queue, e.Attempt+1, h.virtual(e.At+e.Delay-origin), e.Action), messageID: e.MessageID, due: due})
	}
	slices.SortFunc(out, func(a, b work) int { return strings.Compare(a.what, b.what) })
	return out
}

// ladderDone returns when each message was last settled on the schedule
// ladder's due queue: a scheduler settles it there once it has delivered or
// (cancelled) dropped it.
func (tr *tracker) ladderDone() map[string]time.Time {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	done := map[string]time.Time{}
	for _, e := range tr.events {
		if e.Kind == EventSettled && e.Queue == semconv.ScheduleDueQueue {
			done[e.MessageID] = tr.start.Add(e.At)
		}
	}
	return done
}

// scheduledPending is the messages put on the schedule ladder and neither
// delivered to their destination nor dropped by a scheduler when due (done:
// ladderDone).
func scheduledPending(records []Record, done map[string]time.Time) []work {
	delivered := map[string]bool{}
	for _, r := range records {
		if r.Err == nil && r.Exchange != semconv.ScheduleExchange {
			delivered[r.Outbound.MessageID] = true
		}
	}
	var out []work
	seen := map[string]bool{}
	for _, r := range records {
		t, ok := schedule.Read(r.Outbound.Headers)
		if r.Err != nil || r.Exchange != semconv.ScheduleExchange || !ok || delivered[t.ID] || seen[t.ID] ||
			!done[t.ID].Before(t.DueAt) {
			continue
		}
		seen[t.ID] = true
		out = append(out, work{what: fmt.Sprintf("scheduled message %s for %q key %q is due at %s and not delivered",
			t.ID, t.Exchange, t.RoutingKey, t.DueAt.UTC().Format(time.RFC3339Nano)), messageID: t.ID, due: t.DueAt})
	}
	return out
}

// rpcPending is the requests not yet answered whose expiration has not
// passed at now.
func rpcPending(records []Record, now time.Time) []work {
	answered := map[string]bool{}
	for _, r := range records {
		if r.Err == nil && r.Outbound.ReplyTo == "" && r.Outbound.CorrelationID != "" {
			answered[r.Outbound.CorrelationID] = true
		}
	}
	var out []work
	for _, r := range records {
		o := r.Outbound
		ms, err := strconv.ParseInt(o.Expiration, 10, 64)
		if r.Err != nil || o.ReplyTo == "" || err != nil || answered[o.CorrelationID] {
			continue
		}
		if due := r.At.Add(time.Duration(ms) * time.Millisecond); due.After(now) {
			out = append(out, work{what: fmt.Sprintf("request %s (correlation %s) to %q key %q is unanswered until %s",
				o.MessageID, o.CorrelationID, r.Exchange, r.RoutingKey, due.UTC().Format(time.RFC3339Nano)),
				messageID: o.MessageID, due: due})
		}
	}
	return out
}

// describe renders work as a list, one piece a line.
func describe(ws []work) string {
	var b strings.Builder
	for _, w := range ws {
		b.WriteString("\t" + w.what + "\n")
	}
	return b.String()
}
