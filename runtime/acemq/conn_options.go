package acemq

import (
	"errors"
	"fmt"
	"log/slog"
)

// DefaultPrefetch is the number of unsettled messages a consumer may hold
// unless WithPrefetch or Prefetch says otherwise.
const DefaultPrefetch = 20

// WithCodec sets the codec publishers encode with and consumers decode with,
// unless they are given their own. Default JSONCodec{}; nil is refused.
func WithCodec(c Codec) ConnOption {
	return func(cfg *connConfig) error {
		if c == nil {
			return errors.New("acemq: WithCodec was given a nil codec")
		}
		cfg.codec = c
		return nil
	}
}

// WithOrigin sets the origin stamped on every envelope published through the
// connection. Default defaultOrigin() (acemq@{hostname}); empty is refused.
func WithOrigin(origin string) ConnOption {
	return func(cfg *connConfig) error {
		if origin == "" {
			return errors.New("acemq: WithOrigin was given an empty origin")
		}
		cfg.origin = origin
		return nil
	}
}

// WithRetry sets the retry policy of consumers that are not given RetryWith.
// Default DefaultRetryPolicy(); an invalid policy is refused.
func WithRetry(p RetryPolicy) ConnOption {
	return func(cfg *connConfig) error {
		if err := p.Validate(); err != nil {
			return err
		}
		cfg.retry = p
		return nil
	}
}

// WithPrefetch sets how many unsettled messages each consumer may hold unless
// given Prefetch. Default DefaultPrefetch (20); 0 means unlimited; negative
// is refused.
func WithPrefetch(n int) ConnOption {
	return func(cfg *connConfig) error {
		if n < 0 {
			return fmt.Errorf("acemq: WithPrefetch must not be negative, got %d", n)
		}
		cfg.prefetch = n
		return nil
	}
}

// WithLogger sets where the connection logs what it cannot return, such as a
// panicking outcome hook or a failed settlement. Default slog.Default(); nil
// is refused.
func WithLogger(l *slog.Logger) ConnOption {
	return func(cfg *connConfig) error {
		if l == nil {
			return errors.New("acemq: WithLogger was given a nil logger")
		}
		cfg.logger = l
		return nil
	}
}

// errNilObserver refuses a nil observer at Connect.
var errNilObserver = errors.New("acemq: WithObserver was given a nil observer")

// errNilInterceptor refuses a nil interceptor at Connect rather than at the
// first publish.
var errNilInterceptor = errors.New("acemq: the interceptor is nil")

// WithPublishInterceptor adds an interceptor to the publish chain. Chains run
// in the order the options are given and are fixed for the life of the
// connection. A nil interceptor is refused.
func WithPublishInterceptor(i PublishInterceptor) ConnOption {
	return func(cfg *connConfig) error {
		if i == nil {
			return errNilInterceptor
		}
		cfg.pubInts = append(cfg.pubInts, i)
		return nil
	}
}

// WithConsumeInterceptor adds an interceptor to the consume chain. Chains run
// in the order the options are given and are fixed for the life of the
// connection. A nil interceptor is refused.
func WithConsumeInterceptor(i ConsumeInterceptor) ConnOption {
	return func(cfg *connConfig) error {
		if i == nil {
			return errNilInterceptor
		}
		cfg.consInts = append(cfg.consInts, i)
		return nil
	}
}

// SetAsideQueuesOfType makes the connection declare the {queue}.dlq and
// {queue}.parked queues (the dead-letter half of Topology.DeadLetters
// applied through it, and the one Consume declares) as queues of type qt:
// QueueClassic (the default, the family's) or QueueQuorum. On a RabbitMQ
// cluster a classic queue lives on the one node that declared it: while
// that node is down nothing can be set aside there (the engine then leaves
// the original in its queue, requeued) and recovery cannot redeclare it;
// quorum set-aside queues survive a minority of nodes down. Every service
// declaring the same set-aside queues must agree: RabbitMQ refuses to
// redeclare a queue as another type (PRECONDITION_FAILED), so an existing
// classic {queue}.dlq must be deleted (when empty) before switching. Other
// types fail Connect.
func SetAsideQueuesOfType(qt QueueType) ConnOption {
	return func(cfg *connConfig) error {
		cfg.setAsideType = qt
		return setAsideType(qt, "SetAsideQueuesOfType")
	}
}

// setAsideType refuses a set-aside queue type other than classic or quorum,
// naming who asked for it.
func setAsideType(qt QueueType, who string) error {
	if qt != QueueClassic && qt != QueueQuorum {
		return fmt.Errorf("acemq: %s needs classic or quorum, got %q", who, qt)
	}
	return nil
}
