package rabbitmq

import (
	"context"
	"fmt"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

func init() {
	driver.RegisterTransport("amqp", dialExt)
	driver.RegisterTransport("amqps", dialExt)
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

// dialExt is the driver.DialFunc registered for amqp and amqps. Its errors
// are unprefixed: Connect wraps them as "acemq: cannot connect: ...".
func dialExt(ctx context.Context, url string, ext driver.Extensions) (driver.Transport, error) {
	cfg, err := configFrom(ext)
	if err != nil {
		return nil, err
	}
	return dial(ctx, url, cfg)
}

var (
	_ driver.Transport       = (*Transport)(nil)
	_ driver.QueueInspector  = (*Transport)(nil)
	_ driver.Puller          = (*Transport)(nil)
	_ driver.BlockedReporter = (*Transport)(nil)
)
