// Package memq is the in-process AMQP broker behind acemq's memory://
// transport. A Broker holds exchanges, queues and their messages; a Conn is
// one connection to it, owning its subscriptions and exclusive queues. The
// transport adapter (runtime/acemq's memory.go) converts between acemq's
// types and this package's Message, QueueSpec, ExchangeSpec, ConsumeSpec and
// Delivery; nothing here knows acemq. Header values follow the AMQP value
// rules of runtime/internal/amqpvalue, as the RabbitMQ transport's do.
//
// Every method of Broker, Conn and Subscription, and Ack and Nack of a
// delivery's Acker, is safe for concurrent use: one mutex per broker guards
// all of its state. Broker errors are in RabbitMQ's words ("404 NOT_FOUND",
// "406 PRECONDITION_FAILED", ...), prefixed `memory broker "NAME":`.
//
// # Behaviour
//
// A Broker behaves like RabbitMQ 3.10 where acemq can tell (runtime/acemqtest
// runs the same suites on both):
//
//   - direct, topic, fanout and headers exchanges, the amq.* exchanges and
//     the reserved amq. prefix, and alternate exchanges;
//   - auto-delete queues and exchanges, exclusive queues locked to and
//     deleted with their connection, and x-expires;
//   - PRECONDITION_FAILED on inequivalent redeclarations;
//   - message and queue TTLs, expiring at the head of the queue;
//   - dead-lettering with x-death;
//   - x-max-length(-bytes) with drop-head, reject-publish and
//     reject-publish-dlx;
//   - single active consumers and consumer priorities;
//   - quorum queues' requeue order, x-delivery-count and x-delivery-limit;
//   - direct reply-to pseudo-queues (Conn.ConsumeReplies);
//   - streams (x-queue-type stream): an append-only log read without being
//     consumed, each subscription from its x-stream-offset (first, next,
//     last, an offset, a timestamp in whole seconds), every delivery carrying
//     its x-stream-offset header; retention by x-max-age, x-max-length and
//     x-max-length-bytes drops records from the head (the newest is kept);
//     a prefetch is required, basic.get and basic.nack are refused (540);
//   - header values as the broker hands them back.
//
// It does not model headers-exchange
// binding arguments (every binding matches), message priorities or anything
// about durability across restarts.
//
// It imports only the standard library (and the module's amqpvalue).
package memq
