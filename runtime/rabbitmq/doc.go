// Package rabbitmq is the RabbitMQ transport of acemq, built on
// github.com/rabbitmq/amqp091-go. Importing it (blank import is enough)
// registers the amqp:// and amqps:// schemes with acemq.Connect:
//
//	import _ "github.com/acemq/acemq-gen/runtime/rabbitmq"
//
//	conn, err := acemq.Connect(ctx, "amqp://guest:guest@localhost:5672/",
//		rabbitmq.MaxOutstandingPublishes(500), rabbitmq.Name("orders"))
//
//	conn, err := acemq.Connect(ctx, "amqps://app:secret@broker:5671/",
//		rabbitmq.TrustCA("/etc/acemq/ca.pem"))
//
// The transport keeps one AMQP connection with one publishing channel, one
// channel per subscription and a short-lived channel per declaration:
//
//	Publish ──► window (MaxOutstandingPublishes) ──► publish channel (confirm mode)
//	             │ write under the channel lock, wait outside it
//	             ▼
//	        basic.return (by message id) ──► basic.ack / basic.nack ──► PublishResult
//
//	Consume ──► own channel: basic.qos(Prefetch) + basic.consume(manual acks) ──► deliver
//	             settlements ──► settle gate: acks in delivery order ──► one basic.ack(multiple)
//	Declare ──► own channel, closed afterwards (a PRECONDITION_FAILED only kills it)
//
// A subscription acks deliveries settled in the order they came with one
// basic.ack(multiple) per run rather than one frame each, so the broker,
// which shares the machine, handles one frame where it handled up to 64.
// An ack waits at most 20 ms for the run to grow, and at most a quarter of
// the prefetch window is held (none below Prefetch(8)); a nack or reject,
// a full batch behind a delivery still being handled, and closing the
// subscription send what is held at once. A held ack is only late: should
// the connection drop first, the broker delivers those messages again, as
// it does every message not yet acked. Behind a delivery never settled (a
// hung handler while the others go on) the channel follows at most 16,384
// deliveries, then acks one by one.
//
// Publisher confirms are on by default and pipelined: many publishes are in
// flight on the channel and each caller waits only for its own confirm.
// Mandatory publishes that reach no queue come back as PublishResult{Routed:
// false, ReturnReason: "312 NO_ROUTE"}, matched by message id (give
// mandatory messages distinct ids).
//
// No confirmed publish is lost and no unconfirmed one is reported sent: a
// publish (Publish, or PublishAsync's Confirmation) whose confirm was lost
// with the connection is published again, with the same message id, once
// the transport has recovered (on any host of the URL), and returns that
// confirm; it fails only when its ctx ends first. A nack is sent again
// NackRetries times (default 3, pausing 200 ms doubling) before it is
// ErrBrokerRefused; a channel the broker closed in answer to the publish (a
// missing exchange, no write permission, a message over max_message_size)
// is a *RefusedError, which matches ErrBrokerRefused too and is never sent
// again; any other close of the channel is ErrConfirmLost
// (acemq.ErrOutcomeUnknown). A publish not confirmed within
// ChannelStallTimeout (default 5 s), or nacked twice in a row on one
// channel, makes the transport reopen that channel and send again the
// publishes that were waiting on it (a RabbitMQ cluster's channel opened
// before a quorum queue's new leader was elected never confirms). A publish
// not confirmed within ConfirmTimeout (default 30 s) makes the transport drop
// the connection as wedged and recover. This is at-least-once: a consumer
// can see a message twice, with the same x-acemq-id (the broker may have
// taken the first copy), and patterns.WithIdempotency is how a handler sees
// each id once.
// Errors of Publish and of the declarations are the broker's or the
// transport's without an "acemq:" prefix, because acemq.Conn and the
// publisher wrap them naming the message or the queue; Dial, Consume and the
// acknowledgers prefix their own.
//
// Recovery: when the connection drops, the transport redials with a doubling
// backoff (RecoveryDelay), redeclares every queue, exchange and binding it
// declared (in order), and resumes every subscription with the same deliver
// func. A publish in flight when the connection dropped is sent again after
// recovery (above); a publish or declaration started while the connection
// is down waits for recovery as long as its ctx allows.
// OnRecovery reports each step. WithoutRecovery turns recovery off: a lost
// connection is reported lost, then gave-up, and every later call fails.
//
// Blocked connections: when a memory or disk alarm makes the broker block
// the connection (RabbitMQ does so once the connection publishes during the
// alarm), OnRecovery reports blocked with the broker's reason, Blocked (the
// driver.BlockedReporter seam) lets Conn.Health answer at once, and publishes
// wait for the block to lift as long as their ctx allows, then fail with an
// *acemq.PublishingPausedError (acemq.IsBlocked): not written. A publish
// written before the block arrived whose confirm has not come when its ctx
// ends fails with an *acemq.UnconfirmedError (acemq.ErrOutcomeUnknown): the
// broker delivers it once the block lifts. A new connection after recovery
// starts unblocked.
//
// Hostile headers and frame_max: the transport dials TCP (and TLS) itself
// and reads the broker's frames through a filter before amqp091-go does. A
// delivery's header table amqp091-go cannot read (nested deeper than 32,
// a table or array of more than 8192 entries, an unknown field type, a
// length past the end) would fail the whole connection on every delivery;
// the filter replaces that table with semconv.HeaderHeadersRefused, and the
// consumer parks the delivery as "could not be decoded: <why>". Frames it
// need not change pass through without allocating. A publish whose content
// header (properties and headers) would exceed the frame_max negotiated
// with the broker (FrameMax; 128 KiB by default) fails before it is written
// with an *acemq.FrameTooLargeError (acemq.ErrBrokerRefused); a set-aside
// that would drops the largest application headers, naming them in its
// reason, until it fits.
//
// With WithoutConfirms, mandatory publishes (the library's own hops: retry
// republishes and set-asides) still go through a confirmed channel of their
// own, so a hop is never lost unseen.
//
// TLS: amqps:// URLs trust the system's roots, or TrustCA(pemFile), or the
// roots of WithTLS(*tls.Config); giving either option with an amqp:// URL is
// an error. The URL's password never appears in errors: URLs are printed as
// scheme://host:port/vhost.
//
// Every exported function and method is safe for concurrent use.
package rabbitmq
