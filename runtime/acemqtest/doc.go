// Package acemqtest is acemq's test kit. It holds two suites that the
// in-memory transport and the RabbitMQ transport both run, so the fake
// cannot drift from the broker, and that anyone writing a transport can run
// too.
//
// TransportConformance checks the transport SPI (driver.Transport) against
// RabbitMQ's behaviour:
//
//	func TestMyTransportConforms(t *testing.T) {
//		acemqtest.TransportConformance(t, func(t *testing.T) driver.Transport {
//			tr, err := mytransport.Dial(ctx, url)
//			if err != nil {
//				t.Fatal(err)
//			}
//			return tr
//		})
//	}
//
// Each subtest opens a transport of its own (two, where a second connection
// matters; both must reach the same broker), declares uniquely named queues
// and exchanges, and closes the transport when it ends:
//
//	open ──► declare (x-expires: a broker drops leftovers) ──► publish ──► consume ──► assert
//
// Subtests: routing (direct, topic word matching with * and #, fanout, the
// default exchange, alternate exchanges), competing consumers, single
// active consumers and consumer priorities, settling (ack, nack with requeue and the redelivered
// flag, requeue order on classic and quorum queues, Cancel, Close, prefetch,
// quorum x-delivery-count and x-delivery-limit), mandatory returns,
// confirms, dead-lettering (nack without requeue, queue TTL, message TTL
// expiring at the head of the queue, a zero TTL, max-length, dead-letter
// routing key, the x-death and x-first-death-* headers),
// declarations (redeclaring with different arguments, durability or kind
// refused with PRECONDITION_FAILED naming the argument; bindings to
// undeclared or default exchanges, unknown kinds, auto-delete queues and
// exchanges, x-expires, the reserved amq. prefix and the amq.* exchanges,
// exclusive queues locked to their connection, quorum queue properties,
// invalid arguments), overflow (reject-publish nacks), invalid expirations,
// header value types, and publishing to an undeclared exchange. It expects
// publisher confirms to be on: it uses Routed=false of a mandatory publish
// as its oracle for "no queue matched".
//
// BehaviourSuite checks acemq's public API end to end through acemq.Connect
// on a URL: envelopes and their wire headers, typed round trips, retries
// (in the consumer and on broker rung queues), dead-lettering and parking
// with the family's reasons, bad input, interceptors, OnSettled, mandatory
// publishes, SendAll, consumer Close and cancellation, competing consumers,
// declarations and topologies:
//
//	func TestMyBrokerBehaves(t *testing.T) {
//		acemqtest.BehaviourSuite(t, func(t *testing.T) string { return "mybroker://localhost" })
//	}
//
// It reads dead-letter queues through Conn.Pull and Conn.MessageCount, so
// the transport must implement driver.Puller and driver.QueueInspector.
// BehaviourSuiteWithCleanup also hands each subtest's queues and exchanges
// to a cleanup function, for a broker shared between runs.
//
// # Recording what a service publishes
//
// Recorder is a transport that passes every publish on to the transport it
// wraps and records it (exchange, routing key, the driver.Outbound, the
// transport's answer), so a service's tests can check what it published
// through its generated publishers. Connect opens a connection on a private memory:// broker
// through a Recorder and closes it when the test ends; NewRecorder wraps any
// other transport for acemq.NewConn:
//
//	func TestCheckoutPublishesTheOrder(t *testing.T) {
//		conn, rec := acemqtest.Connect(t)
//		if err := orders.DeclareTopology(ctx, conn); err != nil {
//			t.Fatal(err)
//		}
//		checkout(ctx, orders.NewPublisher(conn), cart)
//		m := acemqtest.ExpectPublished[orders.OrderPlaced](t, rec, orders.OrderPlacedRoutingKey, 1)[0]
//		if m.Envelope.Headers["x-bookstore-till"] != "till-3" { ... }
//	}
//
// Published decodes the messages published with a routing key as
// acemq.Message values, choosing the codec by content type (JSON, text or
// bytes; PublishedWith and ExpectPublishedWith take any other codec) and
// reading the envelope from the wire headers. ExpectPublished also checks how
// many there were, and ExpectNothingPublished that there were none; their
// failures list everything that was published instead, with the application
// headers and the bodies. Publishes that failed are kept in
// Recorder.Published (with their error) but left out of the typed results.
// A Recorder passes every optional transport seam (capabilities, queue
// checks, deletes and counts, Pull, blocked reports, reply channels,
// asynchronous publishes) through to the transport it wraps, so a Conn on it
// behaves as one on that transport: SendAll through it writes from one
// goroutine in payload order, and the messages reach the queue and
// Recorder.Published in payload order, as on memory:// itself. It records the
// requests sent through a reply channel and the asynchronous publishes too.
//
// Metrics (NewMetrics) is an in-memory acemq.Observer whose samples a test
// reads back by MetricKey, with the names of runtime/acemq/semconv.
//
// # Testing a whole message flow in virtual time
//
// Run runs a scenario in a testing/synctest bubble with a private memory://
// broker and a Harness whose connection (Harness.Conn) lives in the bubble:
// retry waits, broker rung queues, RPC timeouts and scheduled messages
// advance with virtual time, so waits of hours take microseconds:
//
//	Run(t, fn) ─► bubble ─► memory://NAME ─► h.Conn() ─► fn: consume, publish
//	    ─► h.Settle() / h.Advance(d) ─► h.ExpectSettlements, ExpectDeadLettered, ExpectAnswered, ExpectDelivered
//	    ─► fn returns ─► work in flight? fail ─► Conn closed ─► goroutines left? fail, naming them
//
// The harness sees the connection's publishes and settlements through its
// interceptors and its Recorder, with their virtual times (Harness.Trace,
// Story); Settle moves the clock from one wait to the next until no work is
// in flight. With HarnessAMQPURLEnv set the same scenario runs in real time
// on a RabbitMQ broker, its durations (Harness.D) scaled, and
// HarnessTraceDirEnv collects the settlement traces of both runs for
// comparison (scripts/harness.sh). docs/testing.md has the bookstore's
// tests as the example.
package acemqtest
