package acemq

import (
	"context"
	"log/slog"

	"github.com/acemq/acemq-gen/runtime/internal/safecall"
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

// callPublishInterceptor calls i, turning a panic into an error (guard's
// work, without its closures: this runs once per interceptor per message).
func callPublishInterceptor(ctx context.Context, i PublishInterceptor, pc *PublishContext) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = &safecall.PanicError{What: "acemq: a publish interceptor", Value: p}
		}
	}()
	return i(ctx, pc)
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

// callConsumeInterceptor calls i, turning a panic into an error (guard's
// work, without its closures: this runs once per interceptor per delivery).
func callConsumeInterceptor(ctx context.Context, i ConsumeInterceptor, cc *ConsumeContext) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = &safecall.PanicError{What: "acemq: a consume interceptor", Value: p}
		}
	}()
	return i(ctx, cc)
}

// runPublishHooks runs the outcome hooks the interceptors left, last first.
func (c *Conn) runPublishHooks(ctx context.Context, pc *PublishContext, out PublishOutcome) {
	for i := len(pc.hooks) - 1; i >= 0; i-- {
		runPublishHook(ctx, c.cfg.logger, pc.hooks[i], &out)
	}
}

// runConsumeHooks runs the outcome hooks the interceptors left, last first.
func (c *Conn) runConsumeHooks(ctx context.Context, cc *ConsumeContext, s Settlement) {
	for i := len(cc.hooks) - 1; i >= 0; i-- {
		runConsumeHook(ctx, c.cfg.logger, cc.hooks[i], &s)
	}
}

// runPublishHook calls hook with out, recovering and logging a panic
// (runHook's work, without its closures: this runs once per hook per
// message).
func runPublishHook(ctx context.Context, log *slog.Logger, hook func(context.Context, PublishOutcome), out *PublishOutcome) {
	defer func() {
		if p := recover(); p != nil {
			logHookPanic(ctx, log, "publish", p)
		}
	}()
	hook(ctx, *out)
}

// runConsumeHook calls hook with s, recovering and logging a panic.
func runConsumeHook(ctx context.Context, log *slog.Logger, hook func(context.Context, Settlement), s *Settlement) {
	defer func() {
		if p := recover(); p != nil {
			logHookPanic(ctx, log, "consume", p)
		}
	}()
	hook(ctx, *s)
}

// logHookPanic logs the panic of an outcome hook.
func logHookPanic(ctx context.Context, log *slog.Logger, side string, p any) {
	log.ErrorContext(ctx, "acemq: an outcome hook panicked", slog.String("side", side), slog.Any("panic", p))
}

// runHook calls fn, recovering and logging a panic.
func runHook(ctx context.Context, log *slog.Logger, side string, fn func()) {
	defer func() {
		if p := recover(); p != nil {
			logHookPanic(ctx, log, side, p)
		}
	}()
	fn()
}
