package acemqtest_test

import (
	"context"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
	"github.com/acemq/acemq-gen/runtime/acemqtest"
)

// benchPublish publishes b.N messages on tr to the default exchange.
func benchPublish(b *testing.B, tr driver.Transport) {
	ctx := context.Background()
	if err := tr.DeclareQueue(ctx, "bench", driver.QueueSpec{Args: map[string]any{"x-max-length": 1000}}); err != nil {
		b.Fatal(err)
	}
	msg := driver.Outbound{Body: make([]byte, 256), ContentType: "application/json", Headers: map[string]any{"x-acemq-type": "bench"}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tr.Publish(ctx, "", "bench", msg); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPublishMemoryPlain(b *testing.B) {
	benchPublish(b, benchTransport(b))
}

func BenchmarkPublishMemoryRecorded(b *testing.B) {
	rec := acemqtest.NewRecorder(benchTransport(b))
	benchPublish(b, rec)
	if len(rec.Published()) == 0 {
		b.Fatal("nothing recorded")
	}
}

// benchTransport opens a fresh memory:// transport closed with the benchmark.
func benchTransport(b *testing.B) driver.Transport {
	conn, err := acemq.Connect(context.Background(), "memory://recorder-bench-"+acemq.NewUUID())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = conn.Close() })
	return conn.Transport()
}
