// Package driver is the transport SPI of acemq, as database/sql/driver is
// to database/sql: what a broker binding implements and what the core passes
// it. It is for transport authors (runtime/rabbitmq, the built-in memory://
// broker, the outbox's relay, runtime/acemqtest's recorder and conformance
// suite); applications and generated code use package acemq and should not
// need this package, except to ask a connection what its transport supports
// (acemq.Conn.Supports with a Capability).
//
// Where a transport sits:
//
//	application / generated code
//	        │  acemq.Publisher, acemq.Consume, acemq.Topology ...
//	        ▼
//	package acemq (envelope, interceptors, header rules, codecs, retry, settlement)
//	        │  Transport: DeclareQueue, DeclareExchange, Bind, Publish(Outbound), Consume → Delivery
//	        ▼
//	package driver ◀── implemented by runtime/rabbitmq (amqp://, amqps://), memory://, ...
//	        │
//	        ▼
//	broker
//
// A transport registers a DialFunc for its URL schemes with
// RegisterTransport, usually in an init function; acemq.Connect picks the
// DialFunc by the URL's scheme (Dialer). Besides Transport, a transport may
// implement the optional seams the core looks for with a type assertion:
// AsyncPublisher (pipelined publishing with confirms), Holder and Puller
// (taking messages out of a queue one by one), QueueInspector, QueueChecker
// and QueueDeleter (queue administration), BlockedReporter (broker flow
// control), ReplyTransport (direct reply-to), CapabilityReporter and
// HeadersReleaser (a publisher may reuse a headers table the transport is
// done with).
// A transport that lacks a seam gets the core's fallback or a clear error.
//
// The conformance and behaviour suites in runtime/acemqtest check that a
// transport behaves like RabbitMQ where acemq can tell. Everything in this
// package is safe for concurrent use unless its documentation says
// otherwise; implementations of its interfaces must be too.
package driver
