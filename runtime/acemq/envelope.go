package acemq

import (
	"maps"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/acemq/acemq-gen/runtime/internal/option"
)

// Envelope is the metadata that travels with every message as x-acemq-*
// headers (FAMILY-SPEC §2.2), plus the message's application headers.
// An Envelope is a value; copy it with NextAttempt or by assignment (the
// Headers map is then shared: use NextAttempt for an independent copy).
type Envelope struct {
	// ID identifies the message; default a fresh UUIDv4, also written as the
	// AMQP message-id.
	ID string
	// Type names the message; default the routing key it was published with.
	Type string
	// Version is the payload's schema version; default 1.
	Version int
	// CorrelationID ties a conversation together; default the ID.
	CorrelationID string
	// CausationID is the ID of the message that caused this one; default none.
	CausationID string
	// Attempt counts deliveries of this message, from 1; advanced on every retry.
	Attempt int
	// FirstSeen is when the message was first published (UTC, millisecond precision).
	FirstSeen time.Time
	// Origin names the publisher; default defaultOrigin().
	Origin string
	// Error is the dead-letter or park reason; empty on a live message.
	Error string
	// Claim is reserved for claim checks; written only when set.
	Claim string
	// ReplyTo is the queue a reply goes to (the AMQP reply-to property).
	ReplyTo string
	// Route is the comma-joined step names of a routing slip; see routeSteps.
	Route string
	// RoutePosition is the 0-based current step of Route.
	RoutePosition int
	// RouteID identifies one run along Route.
	RouteID string
	// Headers are the application headers; never nil on an Envelope this
	// package builds. Names in the reserved x-acemq- namespace never appear.
	Headers map[string]any
}

// NewEnvelope builds the envelope of a new message of type typ: a fresh
// UUIDv4 ID, Version 1, CorrelationID = ID, Attempt 1, FirstSeen now,
// Origin defaultOrigin() and an empty Headers map, then applies opts in order.
// The first option that fails stops it and its error is returned.
func NewEnvelope(typ string, opts ...EnvelopeOption) (Envelope, error) {
	env := Envelope{
		ID:        NewUUID(),
		Type:      typ,
		Version:   1,
		Attempt:   1,
		FirstSeen: nowMillis(),
		Origin:    defaultOrigin(),
		Headers:   map[string]any{},
	}
	if err := env.apply(opts); err != nil {
		return Envelope{}, err
	}
	if env.CorrelationID == "" {
		env.CorrelationID = env.ID
	}
	return env, nil
}

func (e *Envelope) apply(opts []EnvelopeOption) error { return option.ApplyUntilError(e, opts) }

// Apply applies opts to e in order, stopping at the first error. It is what
// a publisher uses to apply a caller's options to an envelope it built.
func (e *Envelope) Apply(opts ...EnvelopeOption) error {
	if e.Headers == nil {
		e.Headers = map[string]any{}
	}
	return e.apply(opts)
}

// Age returns how long ago the message was first seen, or -1 when FirstSeen
// is unknown (zero), which a RetryPolicy counts as young.
func (e Envelope) Age() time.Duration {
	if e.FirstSeen.IsZero() {
		return -1
	}
	return time.Since(e.FirstSeen)
}

// NextAttempt returns a copy of e for its next delivery: Attempt + 1, the same
// ID, and a Headers map of its own.
func (e Envelope) NextAttempt() Envelope {
	next := e
	next.Attempt = e.Attempt + 1
	next.Headers = maps.Clone(e.Headers)
	if next.Headers == nil {
		next.Headers = map[string]any{}
	}
	return next
}

// routeSteps returns the step names of Route, or nil when there is no route.
func (e Envelope) routeSteps() []string {
	if e.Route == "" {
		return nil
	}
	return strings.Split(e.Route, ",")
}

// defaultOrigin returns acemq@{hostname}, or "unknown" when the hostname
// cannot be read. It is the default Origin of a new envelope. The hostname
// is read once per process.
var defaultOrigin = sync.OnceValue(func() string {
	host, err := os.Hostname()
	if err != nil || host == "" {
		return "unknown"
	}
	return "acemq@" + host
})

func nowMillis() time.Time {
	return time.Now().UTC().Truncate(time.Millisecond)
}
