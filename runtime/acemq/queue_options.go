package acemq

import (
	"errors"
	"fmt"
)

// QueueType is a RabbitMQ queue type, sent as x-queue-type.
type QueueType string

// The queue types. Classic is the absence of x-queue-type on the wire.
const (
	QueueClassic QueueType = "classic"
	QueueQuorum  QueueType = "quorum"
	QueueStream  QueueType = "stream"
)

// QueueOption changes how a queue is declared; it fails on an unusable value.
// A queue is durable by default, and a durable queue that is neither
// exclusive nor auto-delete is a quorum queue unless OfType says otherwise.
type QueueOption func(*QueueSpec) error

// ExchangeOption changes how an exchange is declared (default durable).
type ExchangeOption func(*ExchangeSpec) error

// Transient declares the queue non-durable (and so classic).
func Transient() QueueOption {
	return func(s *QueueSpec) error { s.Durable = false; return nil }
}

// AutoDelete declares the queue deleted when its last consumer leaves (and so classic).
func AutoDelete() QueueOption {
	return func(s *QueueSpec) error { s.AutoDelete = true; return nil }
}

// Exclusive declares the queue private to the connection (and so classic).
func Exclusive() QueueOption {
	return func(s *QueueSpec) error { s.Exclusive = true; return nil }
}

// DeadLetterTo makes the broker dead-letter the queue's rejected and expired
// messages to exchange (x-dead-letter-exchange). Empty is refused.
func DeadLetterTo(exchange string) QueueOption {
	return func(s *QueueSpec) error {
		if exchange == "" {
			return errors.New("acemq: DeadLetterTo needs an exchange name")
		}
		return setQueueArg(s, ArgDeadLetterExchange, exchange)
	}
}

// QueueArg sets a broker argument of the queue. An empty name or a nil value is refused.
func QueueArg(name string, value any) QueueOption {
	return func(s *QueueSpec) error {
		if name == "" || value == nil {
			return fmt.Errorf("acemq: QueueArg needs a name and a value, got %q=%v", name, value)
		}
		return setQueueArg(s, name, value)
	}
}

// OfType declares the queue as t: classic, quorum or stream. Quorum and
// stream queues must be durable, non-exclusive and not auto-delete.
func OfType(t QueueType) QueueOption {
	return func(s *QueueSpec) error {
		switch t {
		case QueueClassic, QueueQuorum, QueueStream:
			return setQueueArg(s, ArgQueueType, string(t))
		}
		return fmt.Errorf("acemq: OfType needs classic, quorum or stream, got %q", t)
	}
}

func setQueueArg(s *QueueSpec, name string, value any) error {
	if s.Args == nil {
		s.Args = map[string]any{}
	}
	s.Args[name] = value
	return nil
}

// buildQueueSpec applies opts to the default spec (durable) and settles the
// queue type: classic sends no x-queue-type; with none chosen, a durable,
// non-exclusive, non-auto-delete queue is quorum.
func buildQueueSpec(opts []QueueOption) (QueueSpec, error) {
	spec := QueueSpec{Durable: true, Args: map[string]any{}}
	for _, opt := range opts {
		if opt == nil {
			return QueueSpec{}, errors.New("acemq: a queue option is nil")
		}
		if err := opt(&spec); err != nil {
			return QueueSpec{}, err
		}
	}
	return settleQueueType(spec)
}

func settleQueueType(spec QueueSpec) (QueueSpec, error) {
	classicOnly := !spec.Durable || spec.Exclusive || spec.AutoDelete
	t, chosen := spec.Args[ArgQueueType]
	switch {
	case !chosen && !classicOnly:
		spec.Args[ArgQueueType] = string(QueueQuorum)
	case !chosen || t == string(QueueClassic):
		delete(spec.Args, ArgQueueType)
	case classicOnly:
		return QueueSpec{}, fmt.Errorf("acemq: a %v queue must be durable, not exclusive and not auto-delete", t)
	}
	return spec, nil
}

// TransientExchange declares the exchange non-durable.
func TransientExchange() ExchangeOption {
	return func(s *ExchangeSpec) error { s.Durable = false; return nil }
}

// ExchangeArg sets a broker argument of the exchange. An empty name or a nil value is refused.
func ExchangeArg(name string, value any) ExchangeOption {
	return func(s *ExchangeSpec) error {
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
func buildExchangeSpec(kind string, opts []ExchangeOption) (ExchangeSpec, error) {
	if kind == "" {
		return ExchangeSpec{}, errors.New("acemq: an exchange needs a kind: direct, topic, fanout or headers")
	}
	spec := ExchangeSpec{Kind: kind, Durable: true, Args: map[string]any{}}
	for _, opt := range opts {
		if opt == nil {
			return ExchangeSpec{}, errors.New("acemq: an exchange option is nil")
		}
		if err := opt(&spec); err != nil {
			return ExchangeSpec{}, err
		}
	}
	return spec, nil
}
