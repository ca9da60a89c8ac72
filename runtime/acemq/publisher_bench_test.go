package acemq_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

// benchBatch is the batch size of the SendAll benchmarks, as in bench/.
const benchBatch = 1000

// benchPublisher returns a publisher of Order to amq.fanout with no queue
// bound: every publish is confirmed and dropped, so the benchmark measures
// the publish path rather than a memory queue growing by b.N messages.
func benchPublisher(b *testing.B, name string) *acemq.Publisher[Order] {
	conn, err := acemq.Connect(context.Background(), fmt.Sprintf("memory://%s-%d", name, b.N))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = conn.Close() })
	return acemq.NewPublisher[Order](conn, "amq.fanout", "orders")
}

// BenchmarkSendAllOnMemory measures SendAll in batches of benchBatch on
// memory://; ns/op is per message.
func BenchmarkSendAllOnMemory(b *testing.B) {
	benchSendAll(b, benchPublisher(b, "bench-sendall"))
}

// benchSendAll sends b.N messages through pub's SendAll, benchBatch at a time.
func benchSendAll(b *testing.B, pub *acemq.Publisher[Order]) {
	batch := make([]Order, benchBatch)
	for i := range batch {
		batch[i] = Order{ID: "o", Total: i}
	}
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for done := 0; done < b.N; done += benchBatch {
		if _, err := pub.SendAll(ctx, batch[:min(benchBatch, b.N-done)]); err != nil {
			b.Fatal(err)
		}
	}
}
