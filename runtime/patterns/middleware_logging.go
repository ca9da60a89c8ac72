package patterns

import (
	"context"
	"log/slog"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

// WithLogging writes one record to logger for every message the handler
// settles: "acemq: handled a message" with the message's id, type and
// attempt, the Ack ("ack": accept, retry, reject, park or in_progress), how
// long the handler took and, when the Ack carries one, its error. Accepted
// and in-progress messages log at Info, retries at Warn, rejections and
// parks at Error. A nil logger means slog.Default(). (The family takes a
// printf-style function; slog is the Go shape of it.) Safe for concurrent
// use when logger is.
func WithLogging[T any](logger *slog.Logger) Middleware[T] {
	return func(next acemq.Handler[T]) acemq.Handler[T] {
		return func(ctx context.Context, m acemq.Message[T]) acemq.Ack {
			start := time.Now()
			ack := next(ctx, m)
			logAck(ctx, orDefault(logger), m.Envelope, ack, time.Since(start))
			return ack
		}
	}
}

// logAck writes the record WithLogging promises.
func logAck(ctx context.Context, logger *slog.Logger, env acemq.Envelope, ack acemq.Ack, took time.Duration) {
	attrs := []slog.Attr{
		slog.String("message", env.ID), slog.String("type", env.Type), slog.Int("attempt", env.Attempt),
		slog.String("ack", ack.String()), slog.Duration("took", took),
	}
	if err := ack.Err(); err != nil {
		attrs = append(attrs, slog.String("error", err.Error()))
	}
	logger.LogAttrs(ctx, levelOf(ack), "acemq: handled a message", attrs...)
}

// levelOf is the level an Ack is logged at.
func levelOf(ack acemq.Ack) slog.Level {
	switch ack.String() {
	case "accept", "in_progress":
		return slog.LevelInfo
	case "retry":
		return slog.LevelWarn
	}
	return slog.LevelError
}

// orDefault returns logger, or slog.Default() when it is nil.
func orDefault(logger *slog.Logger) *slog.Logger {
	if logger == nil {
		return slog.Default()
	}
	return logger
}
