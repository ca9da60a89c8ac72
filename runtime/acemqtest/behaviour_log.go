package acemqtest

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/internal/implbridge"
)

// logCases are the behaviour of streams (the queue type, an append-only log)
// and their readers (acemqimpl.StreamSpec.Read): memory:// and RabbitMQ agree.
var logCases = []behaviourCase{
	{"log/a-reader-reads-from-each-position-and-consumes-nothing", logPositions},
	{"log/retry-reruns-the-record-in-place-with-the-next-attempt", logRetryInPlace},
	{"log/reject-copies-the-record-to-the-dlq-and-the-reader-moves-on", logRejectCopies},
}

// stream declares a new stream and appends n orders "r0".."rN-1" to it.
func (k *bkit) stream(n int) string {
	k.t.Helper()
	q := k.queue(acemq.OfType(acemq.QueueStream))
	for i := range n {
		k.send(q, order{ID: fmt.Sprint("r", i), Qty: i})
	}
	return q
}

// readLog starts a stream reader of q from from, recording into rec.
func (k *bkit) readLog(q string, from acemq.StreamPosition, rec *recorder, opts ...acemq.ConsumeOption) {
	k.t.Helper()
	reader := implbridge.ConsumeStream(from, nil).(acemq.ConsumeOption)
	k.consume(nil, q, rec.handle, append([]acemq.ConsumeOption{reader}, opts...)...)
}

// offsetsRead waits for n records and returns their offsets.
func (r *recorder) offsetsRead(k *bkit, n int) []int64 {
	k.t.Helper()
	out := make([]int64, n)
	for i := range out {
		out[i] = r.next(k).Stream.Offset
	}
	return out
}

func logPositions(k *bkit) {
	q := k.stream(3)
	for _, c := range []struct {
		from acemq.StreamPosition
		want []int64
	}{
		{acemq.StreamFirst(), []int64{0, 1, 2}},
		{acemq.StreamOffset(1), []int64{1, 2}},
		{acemq.StreamFirst(), []int64{0, 1, 2}},
	} {
		rec := newRecorder(nil)
		k.readLog(q, c.from, rec)
		if got := rec.offsetsRead(k, len(c.want)); !slices.Equal(got, c.want) {
			k.t.Fatalf("read offsets %v, want %v", got, c.want)
		}
	}
}

func logRetryInPlace(k *bkit) {
	q := k.stream(2)
	rec := newRecorder(func(_ context.Context, m acemq.Message[order]) acemq.Ack {
		if m.Stream.Offset == 0 && m.Envelope.Attempt == 1 {
			return acemq.Retry(errors.New("once more"))
		}
		return acemq.Accept()
	})
	k.readLog(q, acemq.StreamFirst(), rec, acemq.RetryWith(acemq.FixedRetry(3, 0)))
	var seen []string
	for range 3 {
		m := rec.next(k)
		seen = append(seen, fmt.Sprintf("%d#%d", m.Stream.Offset, m.Envelope.Attempt))
	}
	if want := []string{"0#1", "0#2", "1#1"}; !slices.Equal(seen, want) {
		k.t.Fatalf("read %v, want %v", seen, want)
	}
}

func logRejectCopies(k *bkit) {
	q := k.stream(2)
	rec := newRecorder(func(_ context.Context, m acemq.Message[order]) acemq.Ack {
		if m.Stream.Offset == 0 {
			return acemq.Reject(errors.New("no"))
		}
		return acemq.Accept()
	})
	k.readLog(q, acemq.StreamFirst(), rec)
	if got := rec.offsetsRead(k, 2); !slices.Equal(got, []int64{0, 1}) {
		k.t.Fatalf("read offsets %v, want 0, 1", got)
	}
	if _, env := k.pullEnvelope(acemq.DeadLetterQueue(q)); env.Error != "the handler rejected it: no" || env.ID == "" {
		k.t.Fatalf("the dead-lettered copy carries %+v, want the family's reject reason", env)
	}
}
