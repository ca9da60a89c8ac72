package acemq_test

import (
	"context"
	"fmt"
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
// delivery, decode, handler, ack. At most benchBatch messages wait at once,
// so the memory queue (whose length checks walk its ready messages) stays
// short whatever b.N is.
func BenchmarkPublishAndConsumeOnMemory(b *testing.B) {
	conn, _ := acemq.Connect(context.Background(), fmt.Sprintf("memory://bench-trip-%d", b.N))
	defer conn.Close()
	_ = conn.DeclareQueue(context.Background(), "orders", acemq.Transient())
	room := make(chan struct{}, benchBatch)
	_, err := acemq.Consume(context.Background(), conn, "orders", func(context.Context, acemq.Message[Order]) acemq.Ack {
		<-room
		return acemq.Accept()
	}, acemq.Concurrency(4))
	if err != nil {
		b.Fatal(err)
	}
	pub := acemq.NewPublisher[Order](conn, "", "orders")
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		room <- struct{}{}
		if err := pub.Send(context.Background(), Order{ID: "o", Total: 1}); err != nil {
			b.Fatal(err)
		}
	}
	for range benchBatch {
		room <- struct{}{}
	}
}
