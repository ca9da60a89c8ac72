package bench

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
	"github.com/acemq/acemq-gen/runtime/rabbitmq"
)

// window is how many unconfirmed publishes each pipelined benchmark keeps in
// flight (the transport's default MaxOutstandingPublishes).
const window = 1000

var body = make([]byte, 256)

func brokerURL(b *testing.B) string {
	url := os.Getenv("ACEMQ_TEST_AMQP_URL")
	if url == "" {
		b.Skip("set ACEMQ_TEST_AMQP_URL (scripts/broker.sh start)")
	}
	return url
}

// rawChannel opens a confirm-mode channel and a fresh durable queue, deleted at cleanup.
func rawChannel(b *testing.B) (*amqp.Channel, string) {
	conn, err := amqp.Dial(brokerURL(b))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = conn.Close() })
	ch, err := conn.Channel()
	if err != nil {
		b.Fatal(err)
	}
	q := queueName()
	if _, err := ch.QueueDeclare(q, true, false, false, false, nil); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _, _ = ch.QueueDelete(q, false, false, false) })
	if err := ch.Confirm(false); err != nil {
		b.Fatal(err)
	}
	return ch, q
}

func queueName() string {
	x := make([]byte, 6)
	_, _ = rand.Read(x)
	return "bench-" + hex.EncodeToString(x)
}

// cpuAtStart is the process's CPU time when the running benchmark's timer
// was last reset (benchmarks run one at a time).
var cpuAtStart time.Duration

// resetTimer resets b's timer and notes the process's CPU time.
func resetTimer(b *testing.B) {
	cpuAtStart = processCPU()
	b.ResetTimer()
}

// report adds msg/s and, from getrusage, the CPU this process spent per
// message since resetTimer (user + system, every goroutine of the process):
// what the broker, on the same cores, did not get.
func report(b *testing.B) {
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msg/s")
	b.ReportMetric(float64((processCPU()-cpuAtStart).Microseconds())/float64(b.N), "cpu-µs/msg")
	b.ReportAllocs()
}

// BenchmarkRawPipelinedConfirms: amqp091-go, publish a window, then wait for
// each of its confirms: the ceiling for one channel.
func BenchmarkRawPipelinedConfirms(b *testing.B) {
	ch, q := rawChannel(b)
	msg := amqp.Publishing{Body: body, DeliveryMode: amqp.Persistent}
	resetTimer(b)
	publishPipelined(b, ch, q, msg, b.N, "nack")
	report(b)
}

// BenchmarkRawPipelinedEnvelopeHeaders: RawPipelinedConfirms carrying the
// headers, content type and message id a SendAll message carries (one
// envelope rendered once): the raw client's ceiling for the family's
// messages, since the broker's cost of the headers is most of the gap.
func BenchmarkRawPipelinedEnvelopeHeaders(b *testing.B) {
	ch, q := rawChannel(b)
	env, err := acemq.NewEnvelope(q)
	if err != nil {
		b.Fatal(err)
	}
	msg := amqp.Publishing{Body: body, DeliveryMode: amqp.Persistent, ContentType: "application/json",
		MessageId: env.ID, Headers: amqp.Table(env.ToWire())}
	resetTimer(b)
	publishPipelined(b, ch, q, msg, b.N, "nack")
	report(b)
}

// BenchmarkRawOneConfirmAtATime: amqp091-go, each publish waits for its confirm.
func BenchmarkRawOneConfirmAtATime(b *testing.B) {
	ch, q := rawChannel(b)
	msg := amqp.Publishing{Body: body, DeliveryMode: amqp.Persistent}
	resetTimer(b)
	for range b.N {
		dc, err := ch.PublishWithDeferredConfirm("", q, false, false, msg)
		if err != nil || !dc.Wait() {
			b.Fatal("publish failed", err)
		}
	}
	report(b)
}

// transport dials the acemq transport and declares a fresh durable queue.
func transport(b *testing.B) (*rabbitmq.Transport, string) {
	ctx := context.Background()
	tr, err := rabbitmq.Dial(ctx, brokerURL(b))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = tr.Close() })
	q := queueName()
	if err := tr.DeclareQueue(ctx, q, driver.QueueSpec{Durable: true}); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { deleteQueue(b, q) })
	return tr, q
}

func deleteQueue(b *testing.B, q string) {
	conn, err := amqp.Dial(brokerURL(b))
	if err != nil {
		return
	}
	defer conn.Close()
	if ch, err := conn.Channel(); err == nil {
		_, _ = ch.QueueDelete(q, false, false, false)
	}
}

// BenchmarkTransportConcurrentPublishers: acemq's transport, 64 or `window`
// goroutines each publishing and waiting for its own confirm (pipelined on one
// channel by the transport).
func BenchmarkTransportConcurrentPublishers(b *testing.B) {
	for _, n := range []int{64, window} {
		b.Run(strconv.Itoa(n), func(b *testing.B) { concurrentPublishers(b, n) })
	}
}

func concurrentPublishers(b *testing.B, publishers int) {
	tr, q := transport(b)
	ctx := context.Background()
	resetTimer(b)
	publishFromWorkers(b, publishers, func(i int) {
		msg := driver.Outbound{Body: body, MessageID: strconv.Itoa(i), Persistent: true}
		if _, err := tr.Publish(ctx, "", q, msg); err != nil {
			b.Error(err)
		}
	})
	report(b)
}

// publishFromWorkers runs publish(i) for every i below b.N on `workers`
// goroutines, and returns when all have returned.
func publishFromWorkers(b *testing.B, workers int, publish func(i int)) {
	next := make(chan int, window)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := range next {
				publish(i)
			}
		})
	}
	for i := range b.N {
		next <- i
	}
	close(next)
	wg.Wait()
}

// BenchmarkTransportOneAtATime: acemq's transport, one publish at a time.
func BenchmarkTransportOneAtATime(b *testing.B) {
	tr, q := transport(b)
	ctx := context.Background()
	resetTimer(b)
	for i := range b.N {
		msg := driver.Outbound{Body: body, MessageID: strconv.Itoa(i), Persistent: true}
		if _, err := tr.Publish(ctx, "", q, msg); err != nil {
			b.Fatal(err)
		}
	}
	report(b)
}

type payload struct {
	Data []byte `json:"data"`
}

// BenchmarkSendAll: the typed publisher's SendAll in batches of `window`
// (envelope, JSON codec, headers, then the transport's PublishAsync from the
// calling goroutine, then the confirms).
func BenchmarkSendAll(b *testing.B) {
	sendAll(b, func(tr driver.Transport) driver.Transport { return tr })
}

// publishOnly hides the transport's AsyncPublisher.
type publishOnly struct{ driver.Transport }

// BenchmarkSendAllThroughPublish: SendAll on a transport that is not an
// driver.AsyncPublisher: each message goes to Transport.Publish on a
// goroutine of its own (SendAll's only path before PublishAsync).
func BenchmarkSendAllThroughPublish(b *testing.B) {
	sendAll(b, func(tr driver.Transport) driver.Transport { return publishOnly{tr} })
}

func sendAll(b *testing.B, wrap func(driver.Transport) driver.Transport) {
	ctx := context.Background()
	tr, err := rabbitmq.Dial(ctx, brokerURL(b))
	if err != nil {
		b.Fatal(err)
	}
	conn, err := acemq.NewConn(wrap(tr))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = conn.Close() })
	q := queueName()
	if err := conn.Transport().DeclareQueue(ctx, q, driver.QueueSpec{Durable: true}); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { deleteQueue(b, q) })
	resetTimer(b)
	sendBatches(b, conn, q, b.N)
	report(b)
}

// sendBatches sends n typed messages (about 256 bytes once encoded) to q
// through the typed publisher's SendAll, in batches of `window`.
func sendBatches(b *testing.B, conn *acemq.Conn, q string, n int) {
	b.Helper()
	pub := acemq.NewPublisher[payload](conn, "", q)
	batch := make([]payload, window)
	for i := range batch {
		batch[i] = payload{Data: body[:180]} // about 256 bytes once encoded
	}
	for done := 0; done < n; done += window {
		if _, err := pub.SendAll(context.Background(), batch[:min(window, n-done)]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTransportEnvelopeHeaders: TransportConcurrentPublishers/1000 with
// the headers SendAll writes (one envelope rendered once, reused), the JSON
// content type and a message id: what the broker pays for the family's
// headers, without any of the publisher's own work.
func BenchmarkTransportEnvelopeHeaders(b *testing.B) {
	tr, q := transport(b)
	ctx := context.Background()
	env, err := acemq.NewEnvelope(q)
	if err != nil {
		b.Fatal(err)
	}
	headers := env.ToWire()
	resetTimer(b)
	publishFromWorkers(b, window, func(int) {
		msg := driver.Outbound{Body: body, ContentType: "application/json", MessageID: env.ID, Headers: headers, Persistent: true}
		if _, err := tr.Publish(ctx, "", q, msg); err != nil {
			b.Error(err)
		}
	})
	report(b)
}
