package otel

import (
	"context"
	"maps"
	"slices"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"go.opentelemetry.io/otel/trace"
)

// headerCarrier adapts an envelope's application headers to a
// propagation.TextMapCarrier. Headers read off the wire may hold []byte
// where a string was written: both are read.
type headerCarrier map[string]any

// Get returns the header key as a string, or "" when it is absent or not text.
func (c headerCarrier) Get(key string) string {
	switch v := c[key].(type) {
	case string:
		return v
	case []byte:
		return string(v)
	}
	return ""
}

// Set writes the header key.
func (c headerCarrier) Set(key, value string) { c[key] = value }

// Keys lists the header names, sorted.
func (c headerCarrier) Keys() []string { return slices.Sorted(maps.Keys(c)) }

// Inject writes the trace-context headers of ctx's span (traceparent, and
// tracestate when there is one) onto env's application headers, creating the
// map when it is nil. It writes nothing when ctx carries no valid span
// context. env must not be shared with another goroutine while it runs.
func (t *Tracing) Inject(ctx context.Context, env *acemq.Envelope) {
	if env == nil {
		return
	}
	if env.Headers == nil {
		env.Headers = map[string]any{}
	}
	t.propagator.Inject(ctx, headerCarrier(env.Headers))
}

// extract returns ctx with the remote span context env's headers carry as
// the current span, and without ctx's own span whatever they carry: a
// message's parent is the message's, never the ambient one.
func (t *Tracing) extract(ctx context.Context, env acemq.Envelope) context.Context {
	detached := trace.ContextWithSpanContext(ctx, trace.SpanContext{})
	if env.Headers == nil {
		return detached
	}
	return t.propagator.Extract(detached, headerCarrier(env.Headers))
}
