// Package otel is AceMQ's OpenTelemetry integration: W3C trace context
// carried on every message, `<destination> publish` and `<queue> process`
// spans with the family's attributes, and the family's metrics written to
// OpenTelemetry instruments under their own names (FAMILY-SPEC §5).
//
//	tracing := otel.New()                                  // global providers, W3C propagator
//	mq, err := acemq.Connect(ctx, url,
//	    acemq.WithPublishInterceptor(tracing.PublishInterceptor()),
//	    acemq.WithObserver(tracing.Observer()))
//	orders := otel.NewPublisher[OrderPlaced](tracing, mq, "", "orders")
//	handler := patterns.Chain(handle, otel.Middleware[OrderPlaced](tracing, "orders"), ...)
//
// Publishing:
//
//	otel.Publisher.Send ── opens "<dest> publish" (PRODUCER, child of ctx's span)
//	   └─ acemq.Publisher ── interceptors: tracing.PublishInterceptor()
//	         │                  writes traceparent/tracestate onto the envelope,
//	         │                  records id, conversation, type, attempt,
//	         │                  leaves an OnOutcome hook
//	         └─ codec → broker → confirm ── hook ends the span with the outcome
//	                                       (confirmed|published|unroutable|failed)
//
// A plain acemq.Publisher opens no span; the interceptor then opens one
// itself, as a child of the span the caller's ctx carries. An otel.Publisher
// without the interceptor still writes traceparent (through an envelope
// option) and ends its span when Send returns.
//
// Consuming:
//
//	engine: interceptors → decode → otel.Handle ── opens "<queue> process"
//	        (CONSUMER, parent = the message's traceparent, never ctx's span)
//	        → handler (span current) → engine decides → acemq.OnSettled
//	        ── ends the span with the settlement's outcome
//	           (acked|retried|rejected|dead_lettered|parked|in_progress)
//
// The consume span ends from OnSettled, so its messaging.acemq.outcome is
// the acemq.consume.total counter's outcome for the same delivery; its end
// timestamp is the moment the handler returned, so like
// acemq.consume.duration it covers the handler and not a retry's wait.
// Messages that never reach the handler (refused by a consume interceptor,
// undecodable) are counted but have no process span. Status
// rules: ERROR only for a publish that was unroutable or failed and for a
// message sent to the dead-letter queue (outcomes dead_lettered and
// rejected); a parked message is a deliberate set-aside and leaves the
// status unset. Retries and set-asides are span events (message.retried,
// message.dead_lettered), not spans. A retry republishes the envelope with
// its headers, so the traceparent survives it: every attempt's span has the
// same remote parent.
//
// Requests: Ask(ctx, tracing, destination, asker, req) runs a
// patterns.Requester or patterns.Client call inside a `<destination>
// request` CLIENT span (outcome answered, timed_out or failed).
//
// Metrics: Observer(meter) (or tracing.Observer()) maps acemq.Observer's
// Count, Observe and Gauge to an Int64Counter, a Float64Histogram (unit s)
// and a Float64Gauge named exactly as the family names them
// (acemq.publish.total, …) with the family's label keys (queue, outcome,
// exchange, routing.key, …).
//
// Only this package of the module imports go.opentelemetry.io/otel.
package otel
