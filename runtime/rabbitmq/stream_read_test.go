package rabbitmq

import (
	"context"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
	"github.com/acemq/acemq-gen/runtime/acemqimpl"
)

// streamQueue declares a uniquely named stream queue on tr, deleted (with
// its set-aside queues) at the end of the test.
func streamQueue(t *testing.T, tr *Transport, c *cleaner) string {
	t.Helper()
	q := c.declared(tr, "stream", driver.QueueSpec{Durable: true, Args: map[string]any{"x-queue-type": "stream"}})
	c.queue(acemq.DeadLetterQueue(q))
	c.queue(acemq.ParkedQueue(q))
	return q
}

// offsetOf reads a stream delivery's x-stream-offset.
func offsetOf(d driver.Delivery) int64 { n, _ := d.Headers["x-stream-offset"].(int64); return n }

func TestStreamConsumeSpecResumeArgsPositionEveryConsumeAfterARecovery(t *testing.T) {
	ev := newEvents()
	tr, c := openTransport(t, OnRecovery(ev.record)), newCleaner(t)
	ctx, q := ctxT(t), streamQueue(t, tr, c)
	for i := range 6 {
		if _, err := tr.Publish(ctx, "", q, driver.Outbound{Body: []byte{byte(i)}}); err != nil {
			t.Fatal(err)
		}
	}
	var resume atomic.Int64
	resume.Store(2)
	in := newInbox()
	spec := driver.ConsumeSpec{Prefetch: 10, Args: map[string]any{"x-stream-offset": "first"},
		ResumeArgs: func() map[string]any { return map[string]any{"x-stream-offset": resume.Load()} }}
	sub, err := tr.Consume(ctx, q, spec, in.deliver)
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	if d := in.next(t); offsetOf(d) != 2 {
		t.Fatalf("first delivery at offset %d, want 2 (ResumeArgs over Args)", offsetOf(d))
	}
	for range 3 {
		in.next(t)
	}
	resume.Store(4)
	tr.dropConnection()
	ev.waitFor(t, RecoveryRecovered)
	if d := in.next(t); offsetOf(d) != 4 {
		t.Fatalf("first delivery after the recovery at offset %d, want 4", offsetOf(d))
	}
}

func TestStreamReaderResumesAfterAReconnectionWithoutDuplicatesOrLosses(t *testing.T) {
	ev := newEvents()
	tr, c := openTransport(t), newCleaner(t)
	q := streamQueue(t, tr, c)
	conn := connect(t, ctxT(t), brokerURL(t), OnRecovery(ev.record), testDelay)
	spec := &acemqimpl.StreamSpec[asyncOrder]{Stream: q, Codec: acemqimpl.Static(acemq.JSONCodec{})}
	p := spec.Publisher(connect(t, ctxT(t), brokerURL(t)))
	appendN := func(from, to int) {
		for n := from; n < to; n++ {
			if err := p.Send(ctxT(t), asyncOrder{N: n}); err != nil {
				t.Fatalf("append %d: %v", n, err)
			}
		}
	}
	got := make(chan int64, 100)
	r, err := spec.Read(ctxT(t), conn, acemq.StreamNext(), func(_ context.Context, m acemq.Message[asyncOrder]) acemq.Ack {
		got <- m.Stream.Offset
		return acemq.Accept()
	})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	time.Sleep(200 * time.Millisecond) // let the reader attach at next
	appendN(0, 5)
	read := collectOffsets(t, got, 5)
	reader := conn.Transport().(*Transport)
	good := reader.cutOff()
	ev.waitFor(t, RecoveryLost)
	appendN(5, 10) // appended while the reader is away: "next" would skip them
	reader.setURL(good)
	ev.waitFor(t, RecoveryRecovered)
	read = append(read, collectOffsets(t, got, 5)...)
	select {
	case n := <-got:
		t.Fatalf("read %v, then %d again", read, n)
	case <-time.After(500 * time.Millisecond):
	}
	if want := []int64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}; !slices.Equal(read, want) {
		t.Errorf("read %v across the reconnection, want each offset once: %v", read, want)
	}
}

// collectOffsets takes n offsets from got.
func collectOffsets(t *testing.T, got <-chan int64, n int) []int64 {
	t.Helper()
	var out []int64
	for range n {
		select {
		case o := <-got:
			out = append(out, o)
		case <-time.After(15 * time.Second):
			t.Fatalf("read %v, want %d more records", out, n)
		}
	}
	return out
}
