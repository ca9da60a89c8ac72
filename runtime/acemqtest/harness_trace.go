package acemqtest

import (
	"context"
	"strconv"
	"sync"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

// Event kinds: what a harness saw happen to a message.
const (
	// EventPublished: the message was published (or sent) through the
	// connection; Exchange and RoutingKey say where, Err what failed.
	EventPublished = "published"
	// EventReceived: a consumer on Queue started handling the message's
	// Attempt.
	EventReceived = "received"
	// EventSettled: the engine settled the delivery of Attempt with Action
	// (acemq.ActionAccepted, ActionRetried, ActionDeadLettered,
	// ActionParked, …), Reason and, for a retry, the Delay before the next.
	EventSettled = "settled"
	// EventReplied: a reply to the request with CorrelationID was
	// published (Story lists it); Reason is the failure it carries, empty
	// for a success.
	EventReplied = "replied"
)

// Event is one thing the harness saw happen to a message, at a virtual time.
type Event struct {
	// At is the virtual time since the scenario started.
	At time.Duration
	// Kind is EventPublished, EventReceived or EventSettled.
	Kind string
	// MessageID is the envelope ID, CorrelationID its correlation id.
	MessageID, CorrelationID string
	// Type is the envelope's message type.
	Type string
	// Exchange and RoutingKey are where a publish went.
	Exchange, RoutingKey string
	// Queue is the queue a delivery came from.
	Queue string
	// Attempt is the delivery's attempt, from 1.
	Attempt int
	// Action, Reason and Delay are a settlement's (acemq.Settlement).
	Action, Reason string
	Delay          time.Duration
	// Err is a failed publish's error text.
	Err string
}

// String renders e on one line, as a story shows it.
func (e Event) String() string {
	s := "+" + e.At.String() + " " + e.Kind
	switch e.Kind {
	case EventPublished:
		s += " to " + strconv.Quote(e.Exchange) + " key " + strconv.Quote(e.RoutingKey)
		if e.Err != "" {
			s += " failed: " + e.Err
		}
	case EventReceived:
		s += " on " + e.Queue + " attempt " + strconv.Itoa(e.Attempt)
	case EventReplied:
		s += " to " + strconv.Quote(e.RoutingKey)
		if e.Reason != "" {
			s += " with failure " + strconv.Quote(e.Reason)
		}
	default:
		s += " on " + e.Queue + " attempt " + strconv.Itoa(e.Attempt) + ": " + e.Action
		if e.Delay > 0 {
			s += " (next in " + e.Delay.String() + ")"
		}
		if e.Reason != "" {
			s += ": " + e.Reason
		}
	}
	return s
}

// tracker records the trace and what is in flight from the connection's
// interceptors (the harness's Recorder supplies the publishes no
// interceptor sees: the schedule ladder's, the replies').
type tracker struct {
	start   time.Time
	mu      sync.Mutex
	events  []Event
	running map[string]Event // deliveries being handled, by queue/id/attempt
	waiting map[string]Event // retries waiting, by queue/id: the settlement
	changed chan struct{}    // closed and replaced whenever work ends
}

func newTracker(start time.Time) *tracker {
	return &tracker{start: start, running: map[string]Event{}, waiting: map[string]Event{},
		changed: make(chan struct{})}
}

// options are the connection options that feed the tracker.
func (tr *tracker) options() []acemq.ConnOption {
	return []acemq.ConnOption{acemq.WithConsumeInterceptor(tr.consumed), acemq.WithPublishInterceptor(tr.published)}
}

// consumed notes a delivery starting and leaves a hook for its settlement.
func (tr *tracker) consumed(_ context.Context, cc *acemq.ConsumeContext) error {
	env := *cc.Envelope
	e := Event{Kind: EventReceived, MessageID: env.ID, CorrelationID: env.CorrelationID, Type: env.Type, Queue: cc.Queue, Attempt: env.Attempt}
	key := cc.Queue + "/" + env.ID
	tr.mu.Lock()
	delete(tr.waiting, key)
	tr.running[key+"/"+strconv.Itoa(env.Attempt)] = tr.add(e)
	tr.mu.Unlock()
	cc.OnOutcome(func(_ context.Context, s acemq.Settlement) { tr.settled(e, key, s) })
	return nil
}

// settled notes the settlement s of the delivery received as e.
func (tr *tracker) settled(e Event, key string, s acemq.Settlement) {
	e.Kind, e.Action, e.Reason, e.Delay = EventSettled, s.Action, s.Reason, s.Delay
	tr.mu.Lock()
	defer tr.mu.Unlock()
	delete(tr.running, key+"/"+strconv.Itoa(e.Attempt))
	e = tr.add(e)
	if s.Action == acemq.ActionRetried || s.Action == acemq.ActionKept || s.Action == acemq.ActionInProgress {
		tr.waiting[key] = e
	}
	close(tr.changed)
	tr.changed = make(chan struct{})
}

// published notes a publish once its outcome is known.
func (tr *tracker) published(_ context.Context, pc *acemq.PublishContext) error {
	pc.OnOutcome(func(_ context.Context, out acemq.PublishOutcome) {
		e := Event{Kind: EventPublished, MessageID: out.Envelope.ID, CorrelationID: out.Envelope.CorrelationID,
			Type: out.Envelope.Type, Exchange: out.Exchange, RoutingKey: out.RoutingKey, Attempt: out.Envelope.Attempt}
		if out.Err != nil {
			e.Err = out.Err.Error()
		}
		tr.mu.Lock()
		defer tr.mu.Unlock()
		tr.add(e)
	})
	return nil
}

// add stamps e with the time and appends it. Call with tr.mu held.
func (tr *tracker) add(e Event) Event {
	e.At = time.Since(tr.start)
	tr.events = append(tr.events, e)
	return e
}

// snapshot returns a copy of the events so far.
func (tr *tracker) snapshot() []Event {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return append([]Event(nil), tr.events...)
}

// origin is how long after the start scenario time begins: at once in a
// bubble, at the first publish on a real broker.
func (tr *tracker) origin(virtual bool) time.Duration {
	if virtual {
		return 0
	}
	tr.mu.Lock()
	defer tr.mu.Unlock()
	for _, e := range tr.events {
		if e.Kind == EventPublished {
			return e.At
		}
	}
	return 0
}

// wake returns a channel closed the next time a piece of work ends.
func (tr *tracker) wake() <-chan struct{} {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return tr.changed
}
