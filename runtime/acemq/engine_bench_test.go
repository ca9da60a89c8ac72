package acemq_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

// BenchmarkSendOnMemory measures one confirmed publish on memory:// (to an
// exchange with no queue bound: see benchPublisher).
func BenchmarkSendOnMemory(b *testing.B) {
	pub := benchPublisher(b, "bench-send")
	b.ReportAllocs()
	for b.Loop() {
		if err := pub.Send(context.Background(), Order{ID: "o", Total: 1}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPublishAndConsumeOnMemory measures a message's whole trip: publish,
// delivery, decode, handler, ack.
func BenchmarkPublishAndConsumeOnMemory(b *testing.B) {
	conn, _ := acemq.Connect(context.Background(), fmt.Sprintf("memory://bench-trip-%d", b.N))
	defer conn.Close()
	_ = conn.DeclareQueue(context.Background(), "orders", acemq.Transient())
	var handled atomic.Int64
	done := make(chan struct{}, 1)
	want := int64(b.N)
	_, err := acemq.Consume(context.Background(), conn, "orders", func(context.Context, acemq.Message[Order]) acemq.Ack {
		if handled.Add(1) == want {
			done <- struct{}{}
		}
		return acemq.Accept()
	}, acemq.Concurrency(4))
	if err != nil {
		b.Fatal(err)
	}
	pub := acemq.NewPublisher[Order](conn, "", "orders")
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if err := pub.Send(context.Background(), Order{ID: "o", Total: 1}); err != nil {
			b.Fatal(err)
		}
	}
	<-done
}
