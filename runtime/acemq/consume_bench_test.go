package acemq_test

import (
	"context"
	"fmt"
	"strconv"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// BenchmarkConsumeOnMemory measures the consumer engine alone: messages
// rendered once (a JSON Order with the family's headers) are published raw,
// at most benchBatch waiting, and consumed by Consume[Order] with 1 and 4
// workers (envelope from the headers, decode, handler, settlement, ack).
func BenchmarkConsumeOnMemory(b *testing.B) {
	for _, workers := range []int{1, 4} {
		b.Run(strconv.Itoa(workers), func(b *testing.B) { benchConsume(b, workers) })
	}
}

func benchConsume(b *testing.B, workers int) {
	ctx := context.Background()
	conn, err := acemq.Connect(ctx, fmt.Sprintf("memory://bench-consume-%d-%d", workers, b.N))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = conn.Close() })
	if err := conn.DeclareQueue(ctx, "orders", acemq.Transient()); err != nil {
		b.Fatal(err)
	}
	room := make(chan struct{}, benchBatch)
	_, err = acemq.Consume(ctx, conn, "orders", func(context.Context, acemq.Message[Order]) acemq.Ack {
		<-room
		return acemq.Accept()
	}, acemq.Concurrency(workers))
	if err != nil {
		b.Fatal(err)
	}
	msg := benchOutbound(b)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		room <- struct{}{}
		if _, err := conn.PublishRaw(ctx, "", "orders", msg); err != nil {
			b.Fatal(err)
		}
	}
	for range benchBatch {
		room <- struct{}{}
	}
}

// benchOutbound renders one Order message as a Publisher would send it.
func benchOutbound(b *testing.B) driver.Outbound {
	env, err := acemq.NewEnvelope("orders", acemq.Header("x-tenant", "acme"))
	if err != nil {
		b.Fatal(err)
	}
	body, err := acemq.JSONCodec{}.Encode(Order{ID: "o", Total: 1})
	if err != nil {
		b.Fatal(err)
	}
	return driver.Outbound{Body: body, ContentType: "application/json", MessageID: env.ID, Headers: env.ToWire(), Persistent: true}
}
