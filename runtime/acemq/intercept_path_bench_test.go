package acemq

import (
	"context"
	"fmt"
	"testing"

	"github.com/acemq/acemq-gen/runtime/internal/cpumeter"
)

// BenchmarkPublishChain measures what the interceptors add to a publish,
// and nothing else: the chain of 0, 1 and 5 interceptors, each leaving a
// no-op outcome hook, then the hooks, on a message's PublishContext (the
// envelope, codec and broker, whose cost does not depend on the chain, are
// left out; BenchmarkSendWithInterceptors has the whole Send). ns/op
// divided by the number of interceptors is what one costs: the target is
// under 100 ns and no allocation.
func BenchmarkPublishChain(b *testing.B) {
	hook := func(context.Context, PublishOutcome) {}
	leaveHook := func(_ context.Context, c *PublishContext) error {
		c.OnOutcome(hook)
		return nil
	}
	for _, n := range []int{0, 1, 5} {
		b.Run(fmt.Sprintf("interceptors=%d", n), func(b *testing.B) {
			var opts []ConnOption
			for range n {
				opts = append(opts, WithPublishInterceptor(leaveHook))
			}
			cfg, err := buildConnConfig(opts)
			if err != nil {
				b.Fatal(err)
			}
			conn := &Conn{cfg: cfg}
			ctx := context.Background()
			o := &outgoing{env: Envelope{ID: "m", Type: "orders"}}
			b.ReportAllocs()
			cpu := cpumeter.Start()
			for b.Loop() {
				o.pc = PublishContext{Exchange: "x", RoutingKey: "orders", Envelope: &o.env, Payload: 1, hooks: o.hooks[:0]}
				if err := conn.runPublishChain(ctx, &o.pc); err != nil {
					b.Fatal(err)
				}
				conn.runPublishHooks(ctx, &o.pc, PublishOutcome{Exchange: "x", RoutingKey: "orders", Envelope: o.env})
			}
			cpu.Report(b)
		})
	}
}
