package acemqtest

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
	"github.com/acemq/acemq-gen/runtime/internal/headerval"
	"github.com/acemq/acemq-gen/runtime/internal/schedule"
)

// Settled is one expected settlement of ExpectSettlements: the attempt, the
// virtual time its delivery began (since the scenario started), the engine's
// action (acemq.ActionAccepted, …) and, when not empty, text its reason must
// contain.
type Settled struct {
	Attempt int
	At      time.Duration
	Action  string
	Reason  string
}

// Trace returns everything the harness saw so far, in order, at virtual
// times since the scenario started.
func (h *Harness) Trace() []Event {
	events, origin := h.trace.snapshot(), h.trace.origin(h.Virtual())
	for i := range events {
		events[i].At = h.virtual(events[i].At - origin)
		events[i].Delay = h.virtual(events[i].Delay)
	}
	return events
}

// Story returns the whole story of message id: every publish, delivery and
// settlement of it, and every reply to it, one a line, in time order.
func (h *Harness) Story(id string) string {
	var lines []Event
	correlation := ""
	for _, e := range h.Trace() {
		if e.MessageID == id || (e.CorrelationID == id && e.Kind == EventPublished) {
			lines = append(lines, e)
			correlation = cmp.Or(correlation, e.CorrelationID)
		}
	}
	lines = append(lines, h.replies(correlation)...)
	slices.SortStableFunc(lines, func(a, b Event) int { return cmp.Compare(a.At, b.At) })
	var b strings.Builder
	fmt.Fprintf(&b, "message %s:\n", id)
	for _, e := range lines {
		b.WriteString("\t" + e.String() + "\n")
	}
	return b.String()
}

// replies are the replies published with correlation id correlation, as
// events whose Reason is the declared error code or failure they carry.
func (h *Harness) replies(correlation string) []Event {
	var out []Event
	for _, r := range h.rec.Published() {
		if correlation == "" || r.Outbound.ReplyTo != "" || r.Outbound.CorrelationID != correlation {
			continue
		}
		failure, _ := headerval.String(r.Outbound.Headers, semconv.HeaderRPCError)
		out = append(out, Event{Kind: EventReplied, At: h.virtual(r.At.Sub(h.start) - h.trace.origin(h.Virtual())),
			MessageID: r.Outbound.MessageID, CorrelationID: correlation, RoutingKey: r.RoutingKey, Reason: failure})
	}
	return out
}

// stories is the story of every message that reached queue ("" for every
// message).
func (h *Harness) stories(queue string) string {
	var b strings.Builder
	seen := map[string]bool{}
	for _, e := range h.Trace() {
		if (queue == "" || e.Queue == queue) && !seen[e.MessageID] {
			seen[e.MessageID] = true
			b.WriteString(h.Story(e.MessageID))
		}
	}
	if b.Len() == 0 {
		return "no message reached " + queue + "\n"
	}
	return b.String()
}

// Settlements returns the settlements of deliveries from queue, in order.
func (h *Harness) Settlements(queue string) []Event {
	var out []Event
	received := map[string]time.Duration{}
	for _, e := range h.Trace() {
		switch {
		case e.Queue != queue:
		case e.Kind == EventReceived:
			received[fmt.Sprint(e.MessageID, "/", e.Attempt)] = e.At
		case e.Kind == EventSettled:
			e.At = received[fmt.Sprint(e.MessageID, "/", e.Attempt)]
			out = append(out, e)
		}
	}
	return out
}

// ExpectSettlements fails the test unless the deliveries from queue were
// settled exactly as want says, in order (At is when each delivery began);
// the failure prints the story of every message that reached queue.
func (h *Harness) ExpectSettlements(queue string, want ...Settled) []Event {
	h.t.Helper()
	got := h.Settlements(queue)
	if problem := compareSettlements(got, want, h.tolerance()); problem != "" {
		h.t.Errorf("acemqtest: settlements on %s: %s\n%s", queue, problem, h.stories(queue))
	}
	return got
}

// compareSettlements is what differs between got and want, or "".
func compareSettlements(got []Event, want []Settled, tolerance time.Duration) string {
	if len(got) != len(want) {
		return fmt.Sprintf("got %d settlements, want %d", len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		if g.Attempt != w.Attempt || g.Action != w.Action || !strings.Contains(g.Reason, w.Reason) || (g.At-w.At).Abs() > tolerance {
			return fmt.Sprintf("settlement %d is attempt %d at +%s %s %q, want attempt %d at +%s %s containing %q",
				i+1, g.Attempt, g.At, g.Action, g.Reason, w.Attempt, w.At, w.Action, w.Reason)
		}
	}
	return ""
}

// tolerance is how far a time may stray: nothing in a bubble; on a real
// broker, a few quiet windows of real time.
func (h *Harness) tolerance() time.Duration {
	if h.Virtual() {
		return 0
	}
	return h.virtual(3 * quietWindow)
}

// ExpectDeadLettered fails the test unless a message from queue was
// dead-lettered with a reason containing reason and waits in queue.dlq, and
// returns its last settlement; the failure prints the stories.
func (h *Harness) ExpectDeadLettered(queue, reason string) Event {
	h.t.Helper()
	return h.expectSetAside(queue, queue+".dlq", "dead_lettered", reason)
}

// ExpectParked is ExpectDeadLettered for a message parked in queue.parked.
func (h *Harness) ExpectParked(queue, reason string) Event {
	h.t.Helper()
	return h.expectSetAside(queue, queue+".parked", "parked", reason)
}

// expectSetAside checks that a message from queue was settled with action
// and reason, and that aside holds a message.
func (h *Harness) expectSetAside(queue, aside, action, reason string) Event {
	h.t.Helper()
	for _, e := range h.Settlements(queue) {
		if e.Action == action && strings.Contains(e.Reason, reason) {
			if n, err := h.conn.MessageCount(context.Background(), aside); err != nil || n == 0 {
				h.t.Errorf("acemqtest: %s holds %d messages (%v), want the one %s\n%s", aside, n, err, action, h.Story(e.MessageID))
			}
			return e
		}
	}
	h.t.Errorf("acemqtest: no message from %s was %s with a reason containing %q\n%s", queue, action, reason, h.stories(queue))
	return Event{}
}

// ExpectDelivered fails the test unless a message was delivered from queue
// at virtual time at (since the scenario started), such as a scheduled
// message when it fell due; it returns that delivery.
func (h *Harness) ExpectDelivered(queue string, at time.Duration) Event {
	h.t.Helper()
	for _, e := range h.Trace() {
		if e.Kind == EventReceived && e.Queue == queue && (e.At-at).Abs() <= h.tolerance() {
			return e
		}
	}
	h.t.Errorf("acemqtest: nothing was delivered from %s at +%s\n%s", queue, at, h.stories(queue))
	return Event{}
}

// ExpectScheduled fails the test unless a message for routingKey was put on
// the schedule ladder, due at virtual time due (since the scenario
// started); it returns that publish.
func (h *Harness) ExpectScheduled(routingKey string, due time.Duration) Record {
	h.t.Helper()
	origin := h.start.Add(h.trace.origin(h.Virtual()))
	for _, r := range h.rec.Published() {
		t, ok := schedule.Read(r.Outbound.Headers)
		if ok && r.Err == nil && r.Exchange == semconv.ScheduleExchange && t.RoutingKey == routingKey &&
			(h.virtual(t.DueAt.Sub(origin))-due).Abs() <= h.tolerance()+time.Millisecond {
			return r
		}
	}
	h.t.Errorf("acemqtest: no message for %q was scheduled due at +%s\n%s", routingKey, due, h.stories(""))
	return Record{}
}

// ExpectAnswered fails the test unless the request published with
// routingKey got a reply; with a non-nil declared (a generated
// Err<Name>, any error with a Code method), the reply must be that declared
// error, and with nil, a success. It returns the reply's record.
func (h *Harness) ExpectAnswered(routingKey string, declared interface{ Code() string }) Record {
	h.t.Helper()
	want := ""
	if declared != nil {
		want = declared.Code()
	}
	for _, req := range h.rec.Published() {
		if req.RoutingKey != routingKey || req.Outbound.ReplyTo == "" {
			continue
		}
		if reply, ok := h.replyTo(req); ok {
			if code, _ := headerval.String(reply.Outbound.Headers, semconv.HeaderRPCErrorCode); code != want {
				h.t.Errorf("acemqtest: the reply to %s failed with code %q, want %q\n%s", routingKey, code, want, h.Story(req.Outbound.MessageID))
			}
			return reply
		}
	}
	h.t.Errorf("acemqtest: no request to %s was answered\n%s", routingKey, h.stories(""))
	return Record{}
}

// ExpectUnanswered fails the test unless a request was published with
// routingKey and no reply to it was published (an RPC that timed out).
func (h *Harness) ExpectUnanswered(routingKey string) Record {
	h.t.Helper()
	for _, req := range h.rec.Published() {
		if req.RoutingKey == routingKey && req.Outbound.ReplyTo != "" {
			if reply, ok := h.replyTo(req); ok {
				h.t.Errorf("acemqtest: the request to %s was answered at +%s\n%s", routingKey, h.virtual(reply.At.Sub(h.start)-h.trace.origin(h.Virtual())), h.Story(req.Outbound.MessageID))
			}
			return req
		}
	}
	h.t.Errorf("acemqtest: no request was published to %s\n%s", routingKey, h.stories(""))
	return Record{}
}

// replyTo finds the reply published to req.
func (h *Harness) replyTo(req Record) (Record, bool) {
	for _, r := range h.rec.Published() {
		if r.Err == nil && r.Outbound.ReplyTo == "" && r.Outbound.CorrelationID == req.Outbound.CorrelationID {
			return r, true
		}
	}
	return Record{}, false
}
