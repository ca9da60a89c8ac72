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
	msg := amqp.Publishing{Body: body, DeliveryMode: amqp.Persistent}
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
				b.Fatal("nack while filling the queue")
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
	_, q := rawChannel(b)
	conn, err := acemq.Connect(context.Background(), brokerURL(b))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = conn.Close() })
	fillTyped(b, conn, q, b.N)
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

// fillTyped puts n typed messages (about 256 bytes of JSON, with the
// family's headers) on q through the publisher, before the timer starts.
func fillTyped(b *testing.B, conn *acemq.Conn, q string, n int) {
	b.Helper()
	pub := acemq.NewPublisher[payload](conn, "", q)
	batch := make([]payload, window)
	for i := range batch {
		batch[i] = payload{Data: body[:180]}
	}
	for done := 0; done < n; done += window {
		if _, err := pub.SendAll(context.Background(), batch[:min(window, n-done)]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTransportConsumeEnvelope: TransportConsume over the messages
// BenchmarkConsumer reads (filled by the typed publisher, so with the
// family's headers): what taking the headers costs the broker and the
// transport, without the engine.
func BenchmarkTransportConsumeEnvelope(b *testing.B) {
	_, q := rawChannel(b)
	conn, err := acemq.Connect(context.Background(), brokerURL(b))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = conn.Close() })
	fillTyped(b, conn, q, b.N)
	got := make(chan struct{}, prefetch)
	resetTimer(b)
	sub, err := conn.Transport().Consume(context.Background(), q, driver.ConsumeSpec{Prefetch: prefetch}, func(d driver.Delivery) {
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
