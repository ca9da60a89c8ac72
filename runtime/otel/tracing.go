package otel

import (
	"context"

	"github.com/acemq/acemq-gen/runtime/acemq"
	otelapi "go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/acemq/acemq-gen/runtime/internal/option"
)

// ScopeName is the instrumentation scope of the tracer and meter this
// package asks its providers for.
const ScopeName = "github.com/acemq/acemq-gen/runtime/otel"

// Tracing holds the providers, propagator and messaging system of one
// application's AceMQ telemetry. Build it once with New and share it: it is
// immutable and safe for concurrent use.
type Tracing struct {
	tracer     trace.Tracer
	meters     metric.MeterProvider
	propagator propagation.TextMapPropagator
	system     string
}

// Option configures New.
type Option func(*Tracing)

// WithTracerProvider makes spans with tp. Default: the global tracer
// provider (otel.GetTracerProvider()), read once by New. A nil tp is ignored.
func WithTracerProvider(tp trace.TracerProvider) Option {
	return func(t *Tracing) {
		if tp != nil {
			t.tracer = tp.Tracer(ScopeName)
		}
	}
}

// WithMeterProvider makes Observer's instruments with mp. Default: the
// global meter provider (otel.GetMeterProvider()). A nil mp is ignored.
func WithMeterProvider(mp metric.MeterProvider) Option {
	return func(t *Tracing) {
		if mp != nil {
			t.meters = mp
		}
	}
}

// WithPropagator carries trace context with p. Default:
// propagation.TraceContext{}, the W3C traceparent and tracestate headers
// every AceMQ library reads (not the global propagator, which is a no-op
// until an application sets one). A nil p is ignored.
func WithPropagator(p propagation.TextMapPropagator) Option {
	return func(t *Tracing) {
		if p != nil {
			t.propagator = p
		}
	}
}

// WithSystem sets the messaging.system attribute. Default "rabbitmq".
// An empty system is ignored.
func WithSystem(system string) Option {
	return func(t *Tracing) {
		if system != "" {
			t.system = system
		}
	}
}

// New returns the tracing of an application: by default the global tracer
// and meter providers, the W3C trace-context propagator and
// messaging.system "rabbitmq".
func New(opts ...Option) *Tracing {
	t := &Tracing{
		tracer:     otelapi.GetTracerProvider().Tracer(ScopeName),
		meters:     otelapi.GetMeterProvider(),
		propagator: propagation.TraceContext{},
		system:     DefaultSystem,
	}
	option.Apply(t, opts)
	return t
}

// Tracer returns the tracer the spans are made with, for spans of an
// application's own around its messaging.
func (t *Tracing) Tracer() trace.Tracer { return t.tracer }

// System returns the messaging.system attribute the spans carry.
func (t *Tracing) System() string { return t.system }

// Observer returns an acemq.Observer writing the family's metrics to a
// meter of the tracing's meter provider; see Observer.
func (t *Tracing) Observer() acemq.Observer {
	return Observer(t.meters.Meter(ScopeName))
}

// PropagationHeaders returns the trace-context headers of ctx's span
// (traceparent, and tracestate when there is one), for a message that does
// not go through an acemq publisher. It is empty when ctx carries no valid
// span context.
func (t *Tracing) PropagationHeaders(ctx context.Context) map[string]string {
	headers := propagation.MapCarrier{}
	t.propagator.Inject(ctx, headers)
	return headers
}
