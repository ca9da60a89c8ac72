package acemqimpl

import (
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

// QueueKeys are what a contract's queue keys say of the queues a message (or
// an RPC's requests) is consumed from: delivery-limit, leader-locator,
// dead-letter-strategy and set-aside-queues. The zero value sets none: the
// broker's and the connection's defaults apply. A QueueKeys is a comparable
// value, safe for concurrent use.
type QueueKeys struct {
	// DeliveryLimit is the queues' x-delivery-limit; 0 sets none.
	DeliveryLimit int
	// LeaderLocator is the queues' x-queue-leader-locator (acemq.LeaderClientLocal
	// or acemq.LeaderBalanced); "" is the broker's choice.
	LeaderLocator acemq.LeaderLocation
	// AtLeastOnceDeadLettering asks for x-dead-letter-strategy at-least-once
	// (with x-overflow reject-publish).
	AtLeastOnceDeadLettering bool
	// SetAside is the type of the {queue}.dlq and {queue}.parked queues; ""
	// is the connection's SetAsideQueuesOfType, else classic.
	SetAside acemq.QueueType
}

// Options are the queue options the keys give a consumed queue, after its
// defaults; nil when the keys set none.
func (k QueueKeys) Options() []acemq.QueueOption {
	var opts []acemq.QueueOption
	if k.DeliveryLimit > 0 {
		opts = append(opts, acemq.DeliveryLimit(k.DeliveryLimit))
	}
	if k.LeaderLocator != "" {
		opts = append(opts, acemq.LeaderLocator(k.LeaderLocator))
	}
	if k.AtLeastOnceDeadLettering {
		opts = append(opts, acemq.AtLeastOnceDeadLettering())
	}
	return opts
}

// deadLetters gives queue its dead-letter half, with set-aside queues of the
// keys' type when the contract fixes one.
func (k QueueKeys) deadLetters(t *acemq.Topology, queue string) *acemq.Topology {
	if k.SetAside == "" {
		return t.DeadLetters(queue)
	}
	return t.DeadLettersOfType(queue, k.SetAside)
}

// consumeOption is the consume option of the keys' set-aside type; nil when
// the contract fixes none.
func (k QueueKeys) consumeOption() acemq.ConsumeOption {
	if k.SetAside == "" {
		return nil
	}
	return ConsumeSetAsideQueuesOfType(k.SetAside)
}

// Retry is a contract's retry policy as its retry key says it. A Retry is a
// comparable value, safe for concurrent use.
type Retry struct {
	// Backoff is "fixed" or "exponential" (anything but "fixed").
	Backoff string
	// Attempts counts every delivery, the first included.
	Attempts int
	// Initial is the first wait; Max caps an exponential one (0: uncapped).
	Initial, Max time.Duration
	// MaxAge abandons a message once its age reaches it; 0: no limit.
	MaxAge time.Duration
}

// Policy is r as the runtime takes it: acemq.FixedRetry or
// acemq.ExponentialRetry, then GiveUpAfter(MaxAge) when MaxAge is set. It is
// the policy a generated specification holds for the same key.
func (r Retry) Policy() acemq.RetryPolicy {
	var p acemq.RetryPolicy
	if r.Backoff == "fixed" {
		p = acemq.FixedRetry(r.Attempts, r.Initial)
	} else {
		p = acemq.ExponentialRetry(r.Attempts, r.Initial, r.Max)
	}
	if r.MaxAge > 0 {
		p = p.GiveUpAfter(r.MaxAge)
	}
	return p
}

// Named is the CodecBuilder of the codec registered as name with
// acemq.RegisterCodec (json, text, bytes come registered; yaml, toml and xml
// are registered by importing runtime/yaml, runtime/toml and runtime/xml). A
// name nobody registered fails each build with acemq.CodecByName's error.
func Named(name string) CodecBuilder {
	return func(*acemq.Conn) (acemq.Codec, error) {
		return acemq.CodecByName(name)
	}
}
