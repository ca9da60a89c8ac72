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
// Header rules (HeaderRule: PublishHeaderRules, ConsumeHeaderRules,
// HeaderRulesOf; RequireHeaders and its kin are the rules that only require)
// check the application headers a contract declares: a required header must
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
// A connection's transport is picked by the URL scheme from a registry
// (RegisterTransport). memory:// is built in; the RabbitMQ transport registers
// amqp:// and amqps:// when its package is imported for side effects:
//
//	import _ "github.com/acemq/acemq-gen/runtime/rabbitmq"
//
// This package imports only the standard library.
package acemq
