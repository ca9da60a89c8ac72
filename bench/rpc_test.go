package bench

import (
	"context"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/patterns"
)

// rpcBody is the request and reply payload of the RPC benchmarks.
var rpcBody = make([]byte, 128)

// BenchmarkRPC: round trips through direct reply-to at concurrency 1 and 32:
// raw amqp091-go (a requester channel consuming amq.rabbitmq.reply-to and
// publishing on it, a responder echoing with manual acks) against acemq's
// patterns.Requester and patterns.Serve (envelope, interceptor chain, bytes
// codec, confirms on requests and replies, deadline headers). Reports p50 and
// p99 latency and calls/s.
func BenchmarkRPC(b *testing.B) {
	for _, c := range []int{1, 32} {
		b.Run("raw/c"+strconv.Itoa(c), func(b *testing.B) { runCalls(b, c, rawRPC(b, c)) })
		b.Run("acemq/c"+strconv.Itoa(c), func(b *testing.B) { runCalls(b, c, acemqRPC(b, c)) })
	}
}

// runCalls makes b.N calls from `callers` goroutines, timing each.
func runCalls(b *testing.B, callers int, call func(i int) error) {
	next := make(chan int, callers)
	lat := make([][]time.Duration, callers)
	var wg sync.WaitGroup
	b.ResetTimer()
	for w := range callers {
		wg.Go(func() {
			for i := range next {
				start := time.Now()
				if err := call(i); err != nil {
					b.Error(err)
				}
				lat[w] = append(lat[w], time.Since(start))
			}
		})
	}
	for i := range b.N {
		next <- i
	}
	close(next)
	wg.Wait()
	reportLatency(b, slices.Concat(lat...))
}

func reportLatency(b *testing.B, all []time.Duration) {
	slices.Sort(all)
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "calls/s")
	b.ReportMetric(float64(all[len(all)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(all[len(all)*99/100].Microseconds()), "p99-µs")
}

// rpcQueue declares a transient request queue, deleted at cleanup.
func rpcQueue(b *testing.B, ch *amqp.Channel) string {
	q := queueName()
	if _, err := ch.QueueDeclare(q, false, false, false, false, nil); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { deleteRPCQueues(b, q, q+".dlq", q+".parked") })
	return q
}

// acemqRPC serves an echo on a fresh queue with acemq and returns a call
// through a patterns.Requester on a second connection.
func acemqRPC(b *testing.B, concurrency int) func(int) error {
	ctx := context.Background()
	server, client := acemqConn(b), acemqConn(b)
	q := queueName()
	if err := server.DeclareQueue(ctx, q, acemq.Transient()); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { deleteRPCQueues(b, q, q+".dlq", q+".parked") })
	echo := func(_ context.Context, m acemq.Message[[]byte]) ([]byte, error) { return m.Payload, nil }
	resp, err := patterns.Serve(ctx, server, q, echo, acemq.ConsumeWith(acemq.BytesCodec{}),
		acemq.Concurrency(concurrency), acemq.Prefetch(2*concurrency))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = resp.Close() })
	req, err := patterns.NewRequester[[]byte, []byte](ctx, client, "", q, patterns.RequesterCodec(acemq.BytesCodec{}))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = req.Close() })
	return func(int) error { _, err := req.Do(ctx, rpcBody); return err }
}

func acemqConn(b *testing.B) *acemq.Conn {
	conn, err := acemq.Connect(context.Background(), brokerURL(b))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = conn.Close() })
	return conn
}

// deleteRPCQueues deletes the request queue and what Serve declared beside it.
func deleteRPCQueues(b *testing.B, names ...string) {
	for _, n := range names {
		deleteQueue(b, n)
	}
}
