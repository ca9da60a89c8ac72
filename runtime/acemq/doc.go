// Package acemq is the runtime that acemq-gen's generated code binds to, and a
// small messaging library in its own right: typed publishers and consumers over
// a pluggable transport, wire-compatible with the AceMQ family of libraries.
//
// The publish path:
//
//	Envelope built → publish interceptors → header rules → Codec.Encode → Transport.Publish → confirm
//
// The consume path:
//
//	Delivery → consume interceptors → header rules → Codec.Decode → Handler → Ack → settlement
//	                                                (accept | retry | in progress | dead-letter | park)
//
// Header rules (a HeaderRule per header, given to PublishHeaderRules,
// ConsumeHeaderRules or HeaderRulesOf; a rule with Required and no Type only
// requires the header) check the application headers a contract declares: a required header must
// be there, and a header whose type is declared must carry a value of that
// type (HeaderValueType says which Go values each type accepts; integers
// may arrive in any width). A publish breaking one fails before anything is
// sent; a delivery breaking one is dead-lettered with the reason.
//
// A retry republishes the message with its attempt advanced, after a wait in
// the consumer or on a broker retry rung ({queue}.retry.{delay}); exhausted
// attempts, Reject, a fatal error, a refusing interceptor, a broken header
// rule and a handler panic dead-letter it to {queue}.dlq; an undecodable body and Park set it aside in
// {queue}.parked; each carries its reason in x-acemq-error.
//
// A hostile body cannot exhaust the process either: every codec of this
// module checks a body against DecodeLimits (64 MiB, nesting 100, a million
// values by default; SetDecodeLimits or a codec's own Limits change them)
// with a cheap scan before its parser allocates, and parks one over a limit
// as "could not be decoded: acemq: <format>: nesting deeper than 100".
//
// No function plugged into the runtime crashes the process by panicking: a
// panicking codec's Encode (or ContentType) is the error Send returns,
// "acemq: the <content type> codec panicked: <value>"; a panicking Decode
// (or CanDecode) parks the message as "could not be decoded: the codec
// panicked: <value>", never retried; a panicking interceptor is an error (on
// consume, a dead letter); a panicking handler is a fatal Reject; a
// panicking outcome hook or OnSettled callback is logged; a panicking health
// check reports down.
//
// A connection's transport is picked by the URL scheme from a registry
// (RegisterTransport). memory:// is built in: memory://NAME is an in-process
// broker that behaves like RabbitMQ 3.10 where acemq can tell (what it
// emulates is listed under "Behaviour" in the documentation of
// runtime/acemq/internal/memq). The RabbitMQ transport registers amqp:// and
// amqps:// when its package is imported for side effects:
//
//	import _ "github.com/acemq/acemq-gen/runtime/rabbitmq"
//
// This package imports only the standard library (and the module's own
// internal packages, which import only the standard library too).
package acemq
