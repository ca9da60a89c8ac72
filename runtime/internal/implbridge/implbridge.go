// Package implbridge is how the generated-code support package
// (runtime/acemqimpl) reaches hooks of package acemq that are not acemq's
// exported API, as protobuf-go's runtime/protoimpl reaches internal/impl.
// Package acemq fills these function values when it is initialised, before
// any code that imports it runs; nothing else may set them. They cannot
// name acemq's types (acemq imports this package), so they pass them as any:
// each says what it is given and what it returns.
//
//	generated code ──▶ runtime/acemqimpl ──▶ implbridge ──(set at init)──▶ runtime/acemq
//
// It imports only the standard library.
package implbridge

import "io"

var (
	// PublishCodec makes p (an *acemq.Publisher[T]) encode with the codec
	// build (a func(*acemq.Conn) (acemq.Codec, error)) returns for p's
	// connection.
	PublishCodec func(p, build any)
	// PublishHeaderRules adds rules (a []acemq.HeaderRule) to p (an
	// *acemq.Publisher[T]).
	PublishHeaderRules func(p, rules any)
	// ConsumeCodec returns the acemq.ConsumeOption decoding with the codec
	// build (a func(*acemq.Conn) (acemq.Codec, error)) returns for conn (an
	// *acemq.Conn).
	ConsumeCodec func(conn, build any) any
	// ConsumeHeaderRules returns the acemq.ConsumeOption enforcing rules (a
	// []acemq.HeaderRule).
	ConsumeHeaderRules func(rules any) any
	// ConsumeSetAside returns the acemq.ConsumeOption declaring set-aside
	// queues of queueType (an acemq.QueueType).
	ConsumeSetAside func(queueType any) any
	// HeaderRulesOf returns the acemq.ConnOption enforcing rules (a
	// []acemq.HeaderRule) on publishes whose payload isPayload accepts and on
	// deliveries of messageType.
	HeaderRulesOf func(messageType string, isPayload func(any) bool, rules any) any
	// ConsumeStream returns the acemq.ConsumeOption making a consumer a
	// stream reader from position from (an acemq.StreamPosition); onGap,
	// when not nil, is told of each run of offsets lost to retention.
	ConsumeStream func(from any, onGap func(first, last int64)) any
	// NewServer returns the *acemq.Server holding running, whose Close
	// closes each in order.
	NewServer func(running []io.Closer) any
)
