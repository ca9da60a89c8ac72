package acemq_test

import (
	"context"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

// TestOnSettledRunsEveryRegistrationLastFirstEvenPastAPanic: a tracing
// middleware and the handler it wraps can both listen; a panicking callback
// does not stop the ones registered before it.
func TestOnSettledRunsEveryRegistrationLastFirstEvenPastAPanic(t *testing.T) {
	conn := connect(t)
	declare(t, conn, "orders", acemq.Transient())
	var order recorder[string]
	consume(t, conn, "orders", func(ctx context.Context, _ acemq.Message[Order]) acemq.Ack {
		acemq.OnSettled(ctx, func(s acemq.Settlement) { order.add("middleware:" + s.Outcome) })
		acemq.OnSettled(ctx, func(acemq.Settlement) { panic("a broken callback") })
		acemq.OnSettled(ctx, func(s acemq.Settlement) { order.add("handler:" + s.Outcome) })
		return acemq.Accept()
	})
	send(t, conn, "orders", Order{ID: "1"})
	waitFor(t, "both callbacks", func() bool { return order.len() == 2 })
	got := order.all()
	if got[0] != "handler:acked" || got[1] != "middleware:acked" {
		t.Fatalf("callbacks ran as %q, want the handler's then the middleware's", got)
	}
}
