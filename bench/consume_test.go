package bench

import (
	"context"
	"strconv"
	"testing"

	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
	"github.com/acemq/acemq-gen/runtime/rabbitmq"
)

// prefetch is the consumers' basic.qos in every consume benchmark.
const prefetch = 200

// fill puts n raw 256-byte persistent messages on q through ch (confirmed,
// pipelined), before the timer starts.
func fill(b *testing.B, ch *amqp.Channel, q string, n int) {
	b.Helper()
	publishPipelined(b, ch, q, amqp.Publishing{Body: body, DeliveryMode: amqp.Persistent}, n, "nack while filling the queue")
}

// publishPipelined publishes msg n times to q through ch, `window` at a
// time, waiting for each window's confirms; a nack fails b with nackMsg.
func publishPipelined(b *testing.B, ch *amqp.Channel, q string, msg amqp.Publishing, n int, nackMsg string) {
	b.Helper()
	for done := 0; done < n; {
		k := min(window, n-done)
		dcs := make([]*amqp.DeferredConfirmation, k)
		for i := range dcs {
			dc, err := ch.PublishWithDeferredConfirm("", q, false, false, msg)
			if err != nil {
				b.Fatal(err)
			}
			dcs[i] = dc
		}
		for _, dc := range dcs {
			if !dc.Wait() {
				b.Fatal(nackMsg)
			}
		}
		done += k
	}
}

// BenchmarkRawConsume: amqp091-go, manual acks, one ack per message,
// basic.qos(prefetch): the ceiling for one consumer channel.
func BenchmarkRawConsume(b *testing.B) {
	ch, q := rawChannel(b)
	fill(b, ch, q, b.N)
	if err := ch.Qos(prefetch, 0, false); err != nil {
		b.Fatal(err)
	}
	resetTimer(b)
	deliveries, err := ch.Consume(q, "", false, false, false, false, nil)
	if err != nil {
		b.Fatal(err)
	}
	for range b.N {
		d := <-deliveries
		if err := d.Ack(false); err != nil {
			b.Fatal(err)
		}
	}
	report(b)
}

// BenchmarkTransportConsume: acemq's transport (Consume with
// Prefetch(prefetch)), one ack per delivery, from its deliver func.
func BenchmarkTransportConsume(b *testing.B) {
	ch, q := rawChannel(b)
	fill(b, ch, q, b.N)
	tr, err := rabbitmq.Dial(context.Background(), brokerURL(b))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = tr.Close() })
	consumeAcking(b, tr, q)
}

// consumeAcking times consuming b.N deliveries from q through tr
// (Prefetch(prefetch)), each acked from the deliver func, and reports.
func consumeAcking(b *testing.B, tr driver.Transport, q string) {
	got := make(chan struct{}, prefetch)
	resetTimer(b)
	sub, err := tr.Consume(context.Background(), q, driver.ConsumeSpec{Prefetch: prefetch}, func(d driver.Delivery) {
		if err := d.Ack(); err != nil {
			b.Error(err)
		}
		got <- struct{}{}
	})
	if err != nil {
		b.Fatal(err)
	}
	defer sub.Close()
	for range b.N {
		<-got
	}
	report(b)
}

// BenchmarkConsumer: the typed consumer end to end (envelope from the
// headers, JSON decode, handler, ack), Prefetch(prefetch), with 1 and 4
// workers.
func BenchmarkConsumer(b *testing.B) {
	for _, workers := range []int{1, 4} {
		b.Run(strconv.Itoa(workers), func(b *testing.B) { consumer(b, workers) })
	}
}

func consumer(b *testing.B, workers int) {
	conn, q := typedQueue(b)
	got := make(chan struct{}, prefetch)
	resetTimer(b)
	c, err := acemq.Consume(context.Background(), conn, q, func(context.Context, acemq.Message[payload]) acemq.Ack {
		got <- struct{}{}
		return acemq.Accept()
	}, acemq.Prefetch(prefetch), acemq.Concurrency(workers))
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	for range b.N {
		<-got
	}
	report(b)
}

// typedQueue connects the typed engine and fills a fresh queue with b.N
// typed messages (fillTyped).
func typedQueue(b *testing.B) (*acemq.Conn, string) {
	_, q := rawChannel(b)
	conn, err := acemq.Connect(context.Background(), brokerURL(b))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = conn.Close() })
	fillTyped(b, conn, q, b.N)
	return conn, q
}

// fillTyped puts n typed messages (about 256 bytes of JSON, with the
// family's headers) on q through the publisher, before the timer starts.
func fillTyped(b *testing.B, conn *acemq.Conn, q string, n int) {
	b.Helper()
	sendBatches(b, conn, q, n)
}

// BenchmarkTransportConsumeEnvelope: TransportConsume over the messages
// BenchmarkConsumer reads (filled by the typed publisher, so with the
// family's headers): what taking the headers costs the broker and the
// transport, without the engine.
func BenchmarkTransportConsumeEnvelope(b *testing.B) {
	conn, q := typedQueue(b)
	consumeAcking(b, conn.Transport(), q)
}
