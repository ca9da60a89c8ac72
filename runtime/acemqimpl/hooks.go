package acemqimpl

import (
	"context"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/internal/implbridge"
)

// PublishWithFunc makes the publisher encode with the codec build returns for
// the publisher's connection, built once when NewPublisher applies the
// option. It is how generated code binds codecs that need something the
// connection carries (a schema registry, a keyring): when build fails, the
// publisher is still returned and every Send fails with build's error, which
// names the missing ConnOption. A nil build or a nil codec fail the same way.
func PublishWithFunc[T any](build CodecBuilder) acemq.PublisherOption[T] {
	return func(p *acemq.Publisher[T]) { implbridge.PublishCodec(p, build) }
}

// ConsumeWithFunc makes the consumer decode with the codec build returns for
// conn; when build fails, Consume fails with its error (which names the
// missing ConnOption). A nil build or a nil codec are refused.
func ConsumeWithFunc(conn *acemq.Conn, build CodecBuilder) acemq.ConsumeOption {
	return implbridge.ConsumeCodec(conn, build).(acemq.ConsumeOption)
}

// PublishHeaderRules makes a Send fail, before anything is sent, when the
// envelope (after the interceptors) breaks one of rules: it lacks a Required
// header (`acemq: a "<routing key>" message requires the header "<name>"`),
// or carries a header of another Type (a *acemq.HeaderTypeError). A rule
// without a name, or with a type that is not an acemq.HeaderValueType, makes
// every Send fail. Default: no rules.
func PublishHeaderRules[T any](rules ...acemq.HeaderRule) acemq.PublisherOption[T] {
	return func(p *acemq.Publisher[T]) { implbridge.PublishHeaderRules(p, rules) }
}

// ConsumeHeaderRules dead-letters, without running the handler, a delivery
// whose envelope (after the interceptors) breaks one of rules: the reason is
// `the message lacks the required header "<name>"` or `the message's header
// "<name>" must be a <type>; it is a <Go type>`. A rule without a name, or
// with an unknown type, fails Consume. Default: no rules.
func ConsumeHeaderRules(rules ...acemq.HeaderRule) acemq.ConsumeOption {
	return implbridge.ConsumeHeaderRules(rules).(acemq.ConsumeOption)
}

// HeaderRulesOf returns a ConnOption that enforces rules on every publisher
// of T (a publish interceptor failing the Send as PublishHeaderRules does)
// and on every delivery of messageType, the envelope's type, which
// publishers set to the routing key (a consume interceptor: the message is
// dead-lettered with "an interceptor refused it: " and the reason
// ConsumeHeaderRules gives). Other payload and message types pass. A rule
// without a name, or with an unknown type, fails Connect. Safe for
// concurrent use.
func HeaderRulesOf[T any](messageType string, rules ...acemq.HeaderRule) acemq.ConnOption {
	isPayload := func(payload any) bool { _, ok := payload.(T); return ok }
	return implbridge.HeaderRulesOf(messageType, isPayload, rules).(acemq.ConnOption)
}

// ConsumeSetAsideQueuesOfType makes Consume declare the queue's {queue}.dlq
// and {queue}.parked as queues of type qt, acemq.QueueClassic or
// acemq.QueueQuorum, whatever the connection's acemq.SetAsideQueuesOfType
// says (generated consumers pass a contract's set-aside-queues key). It must
// agree with the topology that declared them: RabbitMQ refuses to redeclare
// a queue as another type. Default: the connection's choice, else classic.
func ConsumeSetAsideQueuesOfType(qt acemq.QueueType) acemq.ConsumeOption {
	return implbridge.ConsumeSetAside(qt).(acemq.ConsumeOption)
}

// DeclareAndConsume applies t (which may be nil) and then consumes queue: what
// generated code calls.
func DeclareAndConsume[T any](ctx context.Context, conn *acemq.Conn, t *acemq.Topology, queue string, h acemq.Handler[T], opts ...acemq.ConsumeOption) (*acemq.Consumer, error) {
	if t != nil {
		if err := t.Apply(ctx, conn); err != nil {
			return nil, err
		}
	}
	return acemq.Consume(ctx, conn, queue, h, opts...)
}
