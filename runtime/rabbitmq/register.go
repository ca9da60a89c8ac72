package rabbitmq

import (
	"context"
	"fmt"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

func init() {
	acemq.RegisterTransport("amqp", dialExt)
	acemq.RegisterTransport("amqps", dialExt)
}

// Dial connects to the broker at url (amqp:// or amqps://) and returns the
// transport, for acemq.NewConn. opts are this package's options
// (MaxOutstandingPublishes, WithoutConfirms, OnRecovery, Name,
// RecoveryDelay, WithoutRecovery, WithTLS, TrustCA); options of other packages have no effect here and belong
// to NewConn. The handshake is bounded by ctx and 30 s. Safe for concurrent
// use.
func Dial(ctx context.Context, url string, opts ...acemq.ConnOption) (*Transport, error) {
	cfg := defaultConfig()
	for _, opt := range opts {
		if opt == nil {
			continue
		}
		if err := applyForDial(opt, &cfg); err != nil {
			return nil, fmt.Errorf("acemq: cannot connect: %w", err)
		}
	}
	if err := cfg.finish(); err != nil {
		return nil, fmt.Errorf("acemq: cannot connect: %w", err)
	}
	t, err := dial(ctx, url, cfg)
	if err != nil {
		return nil, fmt.Errorf("acemq: cannot connect: %w", err)
	}
	return t, nil
}

// dialExt is the acemq.DialFunc registered for amqp and amqps. Its errors
// are unprefixed: Connect wraps them as "acemq: cannot connect: ...".
func dialExt(ctx context.Context, url string, ext acemq.Extensions) (acemq.Transport, error) {
	cfg, err := configFrom(ext)
	if err != nil {
		return nil, err
	}
	return dial(ctx, url, cfg)
}

var (
	_ acemq.Transport       = (*Transport)(nil)
	_ acemq.QueueInspector  = (*Transport)(nil)
	_ acemq.Puller          = (*Transport)(nil)
	_ acemq.BlockedReporter = (*Transport)(nil)
)
