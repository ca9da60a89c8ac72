// Package acemqtest is acemq's test kit. Its transport conformance suite,
// TransportConformance, checks that an acemq.Transport behaves like RabbitMQ:
// the in-memory transport and the RabbitMQ transport both run it, so the fake
// cannot drift from the broker, and anyone writing a transport can run it too:
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
// Each subtest opens a transport of its own, declares uniquely named queues
// and exchanges, and closes the transport when it ends:
//
//	open ──► declare (x-expires: a broker drops leftovers) ──► publish ──► consume ──► assert
//
// Subtests: routing (direct, topic word matching with * and #, fanout, the
// default exchange), competing consumers, settling (ack, nack with requeue
// and the redelivered flag, Cancel, Close, prefetch), mandatory returns,
// confirms, dead-lettering (nack without requeue, queue TTL, message TTL,
// dead-letter routing key), declarations (redeclaring with different
// arguments, durability or kind refused with PRECONDITION_FAILED naming the
// argument; bindings to undeclared or default exchanges, unknown kinds,
// auto-delete) and publishing to an undeclared exchange.
//
// The suite expects publisher confirms to be on: it uses Routed=false of a
// mandatory publish as its oracle for "no queue matched".
package acemqtest
