// Package semconv is the AceMQ family's vocabulary on the wire and in
// telemetry (FAMILY-SPEC §2.2 and §5.1): the reserved x-acemq-* header names
// of the envelope, the metric names an acemq.Observer receives, their label
// names and the outcome values of those labels.
//
// It is for code that reads or writes what the runtime emits rather than
// the messages themselves: observers and exporters (runtime/otel),
// transports that must recognise the envelope's headers, tools that read
// raw dead letters, and tests. Applications handle envelopes through
// acemq.Envelope and need no header name from here.
//
//	acemq engine ──Count/Observe/Gauge(Metric*, Labels{Label*: Outcome*…})──▶ Observer ──▶ exporter
//	acemq engine ──Outbound.Headers{Header*: …}──▶ transport ──▶ broker ──▶ other family libraries
//
// The names are constants; the package holds no state and imports nothing.
package semconv
