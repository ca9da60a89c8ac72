// Package acemqtest is acemq's test kit. It holds two suites that the
// in-memory transport and the RabbitMQ transport both run, so the fake
// cannot drift from the broker, and that anyone writing a transport can run
// too.
//
// TransportConformance checks the transport SPI (acemq.Transport) against
// RabbitMQ's behaviour:
//
//	func TestMyTransportConforms(t *testing.T) {
//		acemqtest.TransportConformance(t, func(t *testing.T) acemq.Transport {
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
// the transport must implement acemq.Puller and acemq.QueueInspector.
// BehaviourSuiteWithCleanup also hands each subtest's queues and exchanges
// to a cleanup function, for a broker shared between runs.
package acemqtest
