package acemq

import (
	"context"
	"log/slog"
)

// runPublishChain runs the publish interceptors in order and returns the
// first refusal unwrapped. A panic is recovered into an error.
func (c *Conn) runPublishChain(ctx context.Context, pc *PublishContext) error {
	for _, i := range c.cfg.pubInts {
		if err := callPublishInterceptor(ctx, i, pc); err != nil {
			return err
		}
	}
	return nil
}

func callPublishInterceptor(ctx context.Context, i PublishInterceptor, pc *PublishContext) error {
	return guard("acemq: a publish interceptor", func() error { return i(ctx, pc) })
}

// runConsumeChain runs the consume interceptors in order and returns the
// first refusal. A panic is recovered into an error naming it.
func (c *Conn) runConsumeChain(ctx context.Context, cc *ConsumeContext) error {
	for _, i := range c.cfg.consInts {
		if err := callConsumeInterceptor(ctx, i, cc); err != nil {
			return err
		}
	}
	return nil
}

func callConsumeInterceptor(ctx context.Context, i ConsumeInterceptor, cc *ConsumeContext) error {
	return guard("acemq: a consume interceptor", func() error { return i(ctx, cc) })
}

// runPublishHooks runs the outcome hooks the interceptors left, last first.
func (c *Conn) runPublishHooks(ctx context.Context, pc *PublishContext, out PublishOutcome) {
	for i := len(pc.hooks) - 1; i >= 0; i-- {
		runHook(ctx, c.cfg.logger, "publish", func() { pc.hooks[i](ctx, out) })
	}
}

// runConsumeHooks runs the outcome hooks the interceptors left, last first.
func (c *Conn) runConsumeHooks(ctx context.Context, cc *ConsumeContext, s Settlement) {
	for i := len(cc.hooks) - 1; i >= 0; i-- {
		runHook(ctx, c.cfg.logger, "consume", func() { cc.hooks[i](ctx, s) })
	}
}

// runHook calls fn, recovering and logging a panic.
func runHook(ctx context.Context, log *slog.Logger, side string, fn func()) {
	err := guard("acemq: an outcome hook", func() error { fn(); return nil })
	if p, ok := panicked(err); ok {
		log.ErrorContext(ctx, "acemq: an outcome hook panicked", slog.String("side", side), slog.Any("panic", p))
	}
}
