package otel

import (
	"context"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

// PublishInterceptor returns the publish interceptor that carries trace
// context onto every message a connection publishes. Install it with
// acemq.WithPublishInterceptor. On each publish it:
//
//   - takes the `<destination> publish` span an otel.Publisher opened, or,
//     when the publisher is a plain acemq.Publisher (or the span was taken
//     already, by a publish nested in an interceptor), opens one itself as
//     a child of the span ctx carries;
//   - writes that span's W3C traceparent (and tracestate) onto the
//     envelope's headers and records the message's attributes on it;
//   - leaves an outcome hook that ends the span with the real outcome
//     (confirmed, published, unroutable or failed; ERROR status only for
//     the last two), with the exchange, routing key and envelope the later
//     interceptors left.
//
// It never refuses a publish. Safe for concurrent use.
func (t *Tracing) PublishInterceptor() acemq.PublishInterceptor {
	return func(ctx context.Context, pc *acemq.PublishContext) error {
		ps, ok := publishSpanFrom(ctx)
		if !ok || !ps.claimed.CompareAndSwap(false, true) {
			_, ps = t.startPublish(ctx, pc.Exchange, pc.RoutingKey)
		}
		if pc.Envelope != nil {
			ps.describe(pc.Envelope)
		}
		pc.OnOutcome(func(_ context.Context, out acemq.PublishOutcome) { ps.end(out) })
		return nil
	}
}
