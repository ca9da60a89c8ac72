package acemq

import (
	"io"

	"github.com/acemq/acemq-gen/runtime/internal/implbridge"
)

// publisherBridge is what runtime/acemqimpl sets on a Publisher[T], whatever
// T, through implbridge.
type publisherBridge interface {
	bridgeCodec(build func(*Conn) (Codec, error))
	bridgeHeaders(rules []HeaderRule)
}

// codecBuilder is the type of a codec builder crossing the bridge.
type codecBuilder = func(*Conn) (Codec, error)

func init() {
	implbridge.PublishCodec = func(p, build any) { p.(publisherBridge).bridgeCodec(build.(codecBuilder)) }
	implbridge.PublishHeaderRules = func(p, rules any) { p.(publisherBridge).bridgeHeaders(rules.([]HeaderRule)) }
	implbridge.ConsumeCodec = func(conn, build any) any { return consumeWithFunc(conn.(*Conn), build.(codecBuilder)) }
	implbridge.ConsumeHeaderRules = func(rules any) any { return consumeHeaderRules(rules.([]HeaderRule)) }
	implbridge.ConsumeSetAside = func(qt any) any { return consumeSetAsideQueuesOfType(qt.(QueueType)) }
	implbridge.NewServer = func(running []io.Closer) any { return &Server{running: running} }
	implbridge.ConsumeStream = func(from any, onGap func(first, last int64)) any {
		return consumeStream(from.(StreamPosition), onGap)
	}
	implbridge.HeaderRulesOf = func(messageType string, isPayload func(any) bool, rules any) any {
		return headerRulesOf(messageType, isPayload, rules.([]HeaderRule))
	}
}
