package acemq

import (
	"errors"
	"fmt"
	"maps"
	"time"
)

// DefaultDrainTimeout bounds how long Consumer.Close waits for running
// handlers unless DrainTimeout says otherwise.
const DefaultDrainTimeout = 20 * time.Second

// ConsumeOption configures one consumer; an invalid one fails Consume.
type ConsumeOption func(*consumeConfig) error

// consumeConfig is everything Consume was told, over the connection's defaults.
type consumeConfig struct {
	codec       Codec
	retry       RetryPolicy
	setAside    QueueType // "" : the connection's SetAsideQueuesOfType, else classic
	prefetch    int
	concurrency int
	tag         string
	args        map[string]any
	drain       time.Duration
	headers     headerRules
	types       []string      // ExpectMessageTypes; nil: every type
	stream      *streamReader // a stream reader's position (stream_read.go); nil otherwise
}

// buildConsumeConfig applies opts over conn's defaults.
func buildConsumeConfig(conn *Conn, opts []ConsumeOption) (consumeConfig, error) {
	cfg := consumeConfig{
		codec: conn.Codec(), retry: conn.retryPolicy(), prefetch: conn.cfg.prefetch,
		concurrency: 1, drain: DefaultDrainTimeout,
	}
	for _, opt := range opts {
		if opt == nil {
			return consumeConfig{}, errors.New("acemq: a consume option is nil")
		}
		if err := opt(&cfg); err != nil {
			return consumeConfig{}, err
		}
	}
	return cfg, nil
}

// ConsumeWith makes the consumer decode with c instead of the connection's
// codec. A message whose content type c does not claim is parked. nil is refused.
func ConsumeWith(c Codec) ConsumeOption {
	return func(cfg *consumeConfig) error {
		if c == nil {
			return errors.New("acemq: ConsumeWith was given a nil codec")
		}
		cfg.codec = c
		return nil
	}
}

// RetryWith sets the consumer's retry policy. Default: the connection's
// (WithRetry), else DefaultRetryPolicy(). An invalid policy is refused.
func RetryWith(p RetryPolicy) ConsumeOption {
	return func(cfg *consumeConfig) error {
		if err := p.Validate(); err != nil {
			return err
		}
		cfg.retry = p
		return nil
	}
}

// consumeSetAsideQueuesOfType (acemqimpl.ConsumeSetAsideQueuesOfType) makes Consume declare the queue's {queue}.dlq
// and {queue}.parked as queues of type qt, QueueClassic or QueueQuorum,
// whatever the connection's SetAsideQueuesOfType says (generated consumers
// pass a contract's set-aside-queues key). It must agree with the topology
// that declared them: RabbitMQ refuses to redeclare a queue as another type.
// Default: the connection's choice, else classic.
func consumeSetAsideQueuesOfType(qt QueueType) ConsumeOption {
	return func(cfg *consumeConfig) error {
		cfg.setAside = qt
		return setAsideType(qt, "ConsumeSetAsideQueuesOfType")
	}
}

// Prefetch sets how many unsettled messages the consumer may hold. Default:
// the connection's (WithPrefetch, 20); 0 means unlimited; negative is refused.
func Prefetch(n int) ConsumeOption {
	return func(cfg *consumeConfig) error {
		if n < 0 {
			return fmt.Errorf("acemq: Prefetch must not be negative, got %d", n)
		}
		cfg.prefetch = n
		return nil
	}
}

// Concurrency sets how many handlers run at once. Default 1, which handles
// messages in queue order; less than 1 is refused. Handlers beyond the
// prefetch have nothing to run, so Prefetch should be at least Concurrency.
func Concurrency(n int) ConsumeOption {
	return func(cfg *consumeConfig) error {
		if n < 1 {
			return fmt.Errorf("acemq: Concurrency must be at least 1, got %d", n)
		}
		cfg.concurrency = n
		return nil
	}
}

// ConsumerTag names the subscription at the broker. Default: the broker picks.
func ConsumerTag(tag string) ConsumeOption {
	return func(cfg *consumeConfig) error {
		cfg.tag = tag
		return nil
	}
}

// ConsumeArg passes a broker argument with the subscription, such as
// x-stream-offset. An empty name is refused.
func ConsumeArg(name string, value any) ConsumeOption {
	return func(cfg *consumeConfig) error {
		if name == "" {
			return errors.New("acemq: ConsumeArg needs a name")
		}
		cfg.args = maps.Clone(cfg.args)
		if cfg.args == nil {
			cfg.args = map[string]any{}
		}
		cfg.args[name] = value
		return nil
	}
}

// DrainTimeout bounds how long Close waits for running handlers before it
// cancels their contexts and returns a *DrainTimeoutError. Default
// DefaultDrainTimeout (20s); 0 waits without bound; negative is refused.
func DrainTimeout(d time.Duration) ConsumeOption {
	return func(cfg *consumeConfig) error {
		if d < 0 {
			return fmt.Errorf("acemq: DrainTimeout must not be negative, got %s", d)
		}
		cfg.drain = d
		return nil
	}
}
