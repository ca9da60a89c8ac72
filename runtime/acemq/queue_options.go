package acemq

import (
	"errors"
	"fmt"
	"slices"

	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// QueueType is a RabbitMQ queue type, sent as x-queue-type.
type QueueType string

// The queue types. Classic is the absence of x-queue-type on the wire.
const (
	QueueClassic QueueType = "classic"
	QueueQuorum  QueueType = "quorum"
	QueueStream  QueueType = "stream"
)

// The queue arguments of a quorum queue's options below.
const (
	overflowRejectPublish = "reject-publish"
	strategyAtLeastOnce   = "at-least-once"
)

// LeaderLocation is where a new quorum queue's leader is placed
// (x-queue-leader-locator).
type LeaderLocation string

// The leader locations RabbitMQ 3.10 and later know.
const (
	// LeaderClientLocal places the leader on the node the declaring
	// connection is on (the broker's default).
	LeaderClientLocal LeaderLocation = "client-local"
	// LeaderBalanced places it on the node leading the fewest queues
	// (when there are few queues; otherwise a random node).
	LeaderBalanced LeaderLocation = "balanced"
)

// QueueOption changes how a queue is declared; it fails on an unusable value.
// A queue is durable by default, and a durable queue that is neither
// exclusive nor auto-delete is a quorum queue unless OfType says otherwise.
type QueueOption func(*driver.QueueSpec) error

// ExchangeOption changes how an exchange is declared (default durable).
type ExchangeOption func(*driver.ExchangeSpec) error

// Transient declares the queue non-durable (and so classic).
func Transient() QueueOption {
	return func(s *driver.QueueSpec) error { s.Durable = false; return nil }
}

// AutoDelete declares the queue deleted when its last consumer leaves (and so classic).
func AutoDelete() QueueOption {
	return func(s *driver.QueueSpec) error { s.AutoDelete = true; return nil }
}

// Exclusive declares the queue private to the connection (and so classic).
func Exclusive() QueueOption {
	return func(s *driver.QueueSpec) error { s.Exclusive = true; return nil }
}

// DeadLetterTo makes the broker dead-letter the queue's rejected and expired
// messages to exchange (x-dead-letter-exchange). Empty is refused.
func DeadLetterTo(exchange string) QueueOption {
	return func(s *driver.QueueSpec) error {
		if exchange == "" {
			return errors.New("acemq: DeadLetterTo needs an exchange name")
		}
		return setQueueArg(s, driver.ArgDeadLetterExchange, exchange)
	}
}

// QueueArg sets a broker argument of the queue. An empty name or a nil value is refused.
func QueueArg(name string, value any) QueueOption {
	return func(s *driver.QueueSpec) error {
		if name == "" || value == nil {
			return fmt.Errorf("acemq: QueueArg needs a name and a value, got %q=%v", name, value)
		}
		return setQueueArg(s, name, value)
	}
}

// OfType declares the queue as t: classic, quorum or stream. Quorum and
// stream queues must be durable, non-exclusive and not auto-delete.
func OfType(t QueueType) QueueOption {
	return func(s *driver.QueueSpec) error {
		switch t {
		case QueueClassic, QueueQuorum, QueueStream:
			return setQueueArg(s, driver.ArgQueueType, string(t))
		}
		return fmt.Errorf("acemq: OfType needs classic, quorum or stream, got %q", t)
	}
}

// DeliveryLimit makes a quorum queue dead-letter (or, without a
// dead-letter exchange, drop) a message returned to it more than n times
// (x-delivery-limit): the broker's backstop against a poison message that
// crashes its consumer before it can be settled, which the engine's retry
// policy never sees. n must be at least 1. The queue must be a quorum queue
// (the default for a durable one); on a classic or stream queue it fails.
// Default: no limit (RabbitMQ 3.10 to 3.13); RabbitMQ 4.0 and later apply
// 20 when none is set.
func DeliveryLimit(n int) QueueOption {
	return func(s *driver.QueueSpec) error {
		if n < 1 {
			return fmt.Errorf("acemq: DeliveryLimit must be at least 1, got %d", n)
		}
		return setQueueArg(s, driver.ArgDeliveryLimit, n)
	}
}

// LeaderLocator chooses the node that leads a new quorum (or stream)
// queue (x-queue-leader-locator): LeaderClientLocal or LeaderBalanced. It
// matters only when the queue is created; on a classic queue it fails.
// Default: the broker's (client-local).
func LeaderLocator(l LeaderLocation) QueueOption {
	return func(s *driver.QueueSpec) error {
		switch l {
		case LeaderClientLocal, LeaderBalanced:
			return setQueueArg(s, driver.ArgLeaderLocator, string(l))
		}
		return fmt.Errorf("acemq: LeaderLocator needs client-local or balanced, got %q", l)
	}
}

// AtLeastOnceDeadLettering makes a quorum queue keep a message it
// dead-letters until the dead-letter queue has confirmed it
// (x-dead-letter-strategy: at-least-once), so a dead-letter target on a
// node that is down delays the message instead of losing it. RabbitMQ
// requires x-overflow: reject-publish with it, which this option sets: a
// full queue (x-max-length) then refuses publishes instead of dropping its
// oldest message. It needs a quorum queue and a dead-letter exchange
// (Topology.DeadLetters or DeadLetterTo) to do anything; with another
// x-overflow it fails. Default: at-most-once (the broker's).
func AtLeastOnceDeadLettering() QueueOption {
	return func(s *driver.QueueSpec) error {
		if o, ok := s.Args[driver.ArgOverflow]; ok && o != overflowRejectPublish {
			return fmt.Errorf("acemq: AtLeastOnceDeadLettering needs x-overflow reject-publish, but the queue sets %v", o)
		}
		if err := setQueueArg(s, driver.ArgOverflow, overflowRejectPublish); err != nil {
			return err
		}
		return setQueueArg(s, driver.ArgDeadLetterStrategy, strategyAtLeastOnce)
	}
}

// quorumOnly are the arguments the options above give and the queue types
// that heed them.
var quorumOnly = map[string][]QueueType{
	driver.ArgDeliveryLimit:      {QueueQuorum},
	driver.ArgLeaderLocator:      {QueueQuorum, QueueStream},
	driver.ArgDeadLetterStrategy: {QueueQuorum},
}

// checkTypedArgs refuses an argument of a quorum queue on a queue of
// another type.
func checkTypedArgs(spec driver.QueueSpec) error {
	t := QueueClassic
	if v, ok := spec.Args[driver.ArgQueueType].(string); ok {
		t = QueueType(v)
	}
	for arg, types := range quorumOnly {
		if _, set := spec.Args[arg]; set && !slices.Contains(types, t) {
			return fmt.Errorf("acemq: %s needs a %v queue, but the queue is %s", arg, types[0], t)
		}
	}
	return nil
}

func setQueueArg(s *driver.QueueSpec, name string, value any) error {
	if s.Args == nil {
		s.Args = map[string]any{}
	}
	s.Args[name] = value
	return nil
}

// buildQueueSpec applies opts to the default spec (durable) and settles the
// queue type: classic sends no x-queue-type; with none chosen, a durable,
// non-exclusive, non-auto-delete queue is quorum.
func buildQueueSpec(opts []QueueOption) (driver.QueueSpec, error) {
	spec := driver.QueueSpec{Durable: true, Args: map[string]any{}}
	for _, opt := range opts {
		if opt == nil {
			return driver.QueueSpec{}, errors.New("acemq: a queue option is nil")
		}
		if err := opt(&spec); err != nil {
			return driver.QueueSpec{}, err
		}
	}
	spec, err := settleQueueType(spec)
	if err != nil {
		return driver.QueueSpec{}, err
	}
	return spec, checkTypedArgs(spec)
}

func settleQueueType(spec driver.QueueSpec) (driver.QueueSpec, error) {
	classicOnly := !spec.Durable || spec.Exclusive || spec.AutoDelete
	t, chosen := spec.Args[driver.ArgQueueType]
	switch {
	case !chosen && !classicOnly:
		spec.Args[driver.ArgQueueType] = string(QueueQuorum)
	case !chosen || t == string(QueueClassic):
		delete(spec.Args, driver.ArgQueueType)
	case classicOnly:
		return driver.QueueSpec{}, fmt.Errorf("acemq: a %v queue must be durable, not exclusive and not auto-delete", t)
	}
	return spec, nil
}

// TransientExchange declares the exchange non-durable.
func TransientExchange() ExchangeOption {
	return func(s *driver.ExchangeSpec) error { s.Durable = false; return nil }
}

// ExchangeArg sets a broker argument of the exchange. An empty name or a nil value is refused.
func ExchangeArg(name string, value any) ExchangeOption {
	return func(s *driver.ExchangeSpec) error {
		if name == "" || value == nil {
			return fmt.Errorf("acemq: ExchangeArg needs a name and a value, got %q=%v", name, value)
		}
		if s.Args == nil {
			s.Args = map[string]any{}
		}
		s.Args[name] = value
		return nil
	}
}

// buildExchangeSpec applies opts to a durable exchange of kind; a missing
// kind is refused.
func buildExchangeSpec(kind string, opts []ExchangeOption) (driver.ExchangeSpec, error) {
	if kind == "" {
		return driver.ExchangeSpec{}, errors.New("acemq: an exchange needs a kind: direct, topic, fanout or headers")
	}
	spec := driver.ExchangeSpec{Kind: kind, Durable: true, Args: map[string]any{}}
	for _, opt := range opts {
		if opt == nil {
			return driver.ExchangeSpec{}, errors.New("acemq: an exchange option is nil")
		}
		if err := opt(&spec); err != nil {
			return driver.ExchangeSpec{}, err
		}
	}
	return spec, nil
}
