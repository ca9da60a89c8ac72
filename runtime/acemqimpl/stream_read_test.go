package acemqimpl_test

import (
	"context"
	"errors"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemqimpl"
	"github.com/acemq/acemq-gen/runtime/acemqtest"
	"github.com/acemq/acemq-gen/runtime/patterns"
)

func TestStreamReadStartsAtEveryPosition(t *testing.T) {
	onEachTransport(t, func(k *streamKit) {
		k.append(0, 4)
		_, first := k.read(acemq.StreamFirst(), nil)
		if got := offsets(take(t, first, 4)); !slices.Equal(got, []int64{0, 1, 2, 3}) {
			t.Errorf("first: read offsets %v, want 0..3", got)
		}
		_, at := k.read(acemq.StreamOffset(2), nil)
		if got := offsets(take(t, at, 2)); !slices.Equal(got, []int64{2, 3}) {
			t.Errorf("offset 2: read offsets %v, want 2, 3", got)
		}
		_, last := k.read(acemq.StreamLast(), nil)
		_, next := k.read(acemq.StreamNext(), nil)
		time.Sleep(200 * time.Millisecond) // let next attach before the append
		k.append(4, 5)
		if got := offsets(take(t, next, 1)); !slices.Equal(got, []int64{4}) {
			t.Errorf("next: read offsets %v, want only the record appended after it attached", got)
		}
		lastRead := offsets(take(t, last, 2))
		if !slices.Equal(lastRead, []int64{3, 4}) {
			t.Errorf("last: read offsets %v, want the last record (3) and the one appended after", lastRead)
		}
	})
}

func TestStreamReadSetsTheRecordsOffsetAndTimestamp(t *testing.T) {
	onEachTransport(t, func(k *streamKit) {
		before := time.Now().Add(-time.Second)
		k.append(0, 2)
		_, ch := k.read(acemq.StreamFirst(), nil)
		for i, g := range take(t, ch, 2) {
			if g.offset != int64(i) || g.n != i {
				t.Errorf("record %d: offset %d payload %d", i, g.offset, g.n)
			}
			if g.at.Before(before) || g.at.After(time.Now()) {
				t.Errorf("record %d: timestamp %v, want the append time", i, g.at)
			}
		}
	})
}

func TestStreamRetryRedeliversTheSameRecordInPlace(t *testing.T) {
	onEachTransport(t, func(k *streamKit) {
		k.append(0, 3)
		var mu sync.Mutex
		tries := 0
		_, ch := k.read(acemq.StreamFirst(), func(m acemq.Message[rec]) acemq.Ack {
			mu.Lock()
			defer mu.Unlock()
			if m.Payload.N == 1 && tries < 2 {
				tries++
				return acemq.Retry(errors.New("not yet"))
			}
			return acemq.Accept()
		}, acemq.RetryWith(acemq.FixedRetry(5, 20*time.Millisecond)))
		var seq []string
		for _, g := range take(t, ch, 5) {
			seq = append(seq, g.String())
		}
		if want := []string{"0:n0#1", "1:n1#1", "1:n1#2", "1:n1#3", "2:n2#1"}; !slices.Equal(seq, want) {
			t.Errorf("read %v, want record 1 handled again in place, attempts counted: %v", seq, want)
		}
		if parked, dead := k.pullAll(acemq.ParkedQueue(k.spec.Stream)), k.pullAll(acemq.DeadLetterQueue(k.spec.Stream)); len(parked)+len(dead) > 0 {
			t.Errorf("a retried record was set aside: parked %v, dead-lettered %v", parked, dead)
		}
	})
}

func TestStreamRetryExhaustedCopiesTheRecordToTheDLQAndMovesOn(t *testing.T) {
	onEachTransport(t, func(k *streamKit) {
		k.append(0, 2)
		_, ch := k.read(acemq.StreamFirst(), func(m acemq.Message[rec]) acemq.Ack {
			if m.Payload.N == 0 {
				return acemq.Retry(errors.New("never"))
			}
			return acemq.Accept()
		}, acemq.RetryWith(acemq.FixedRetry(2, 10*time.Millisecond)))
		if got := offsets(take(t, ch, 3)); !slices.Equal(got, []int64{0, 0, 1}) {
			t.Errorf("read offsets %v, want record 0 twice, then 1", got)
		}
		dead := k.pullAll(acemq.DeadLetterQueue(k.spec.Stream))
		if len(dead) != 1 || !strings.Contains(dead[0].Error, "exhausted 2 attempts: never") {
			t.Errorf("dead-lettered %+v, want one copy with the exhausted reason", dead)
		}
	})
}

func TestStreamRejectAndParkCopyTheRecordWithTheFamilysReasonAndMoveOn(t *testing.T) {
	onEachTransport(t, func(k *streamKit) {
		k.append(0, 3)
		_, ch := k.read(acemq.StreamFirst(), func(m acemq.Message[rec]) acemq.Ack {
			switch m.Payload.N {
			case 0:
				return acemq.Reject(errors.New("bad record"))
			case 1:
				return acemq.Park(errors.New("look later"))
			}
			return acemq.Accept()
		})
		if got := offsets(take(t, ch, 3)); !slices.Equal(got, []int64{0, 1, 2}) {
			t.Errorf("read offsets %v, want each record once", got)
		}
		dead, parked := k.pullAll(acemq.DeadLetterQueue(k.spec.Stream)), k.pullAll(acemq.ParkedQueue(k.spec.Stream))
		if len(dead) != 1 || dead[0].Error != "the handler rejected it: bad record" {
			t.Errorf("dead-lettered %+v, want the rejected record with the family's reason", dead)
		}
		if len(parked) != 1 || parked[0].Error != "the handler parked it: look later" {
			t.Errorf("parked %+v, want the parked record with the family's reason", parked)
		}
		_, again := k.read(acemq.StreamFirst(), nil)
		if got := offsets(take(t, again, 3)); !slices.Equal(got, []int64{0, 1, 2}) {
			t.Errorf("the stream holds %v after the copies, want every record still there", got)
		}
	})
}

func TestStreamReadRefusesConcurrency(t *testing.T) {
	k := newStreamKit(t, "memory://"+acemq.NewUUID(), nil)
	_, err := k.spec.Read(k.ctx, k.conn, acemq.StreamFirst(), func(_ context.Context, _ acemq.Message[rec]) acemq.Ack { return acemq.Accept() },
		acemq.Concurrency(4))
	if err == nil || !strings.Contains(err.Error(), "Concurrency must be 1") {
		t.Errorf("Read with Concurrency(4): %v, want it refused", err)
	}
}

func TestStreamReaderBehindRetentionReportsTheGap(t *testing.T) {
	gaps := make(chan patterns.StreamGap, 10)
	spec := &acemqimpl.StreamSpec[rec]{}
	k := newStreamKit(t, "memory://"+acemq.NewUUID(), spec, patterns.OnStreamGap(func(g patterns.StreamGap) { gaps <- g }))
	// memory:// applies x-max-length to a stream: keep the last 3 records.
	if err := acemq.NewTopology().Queue(k.spec.Stream+"-short", acemq.OfType(acemq.QueueStream), acemq.QueueArg("x-max-length", 3)).Apply(k.ctx, k.conn); err != nil {
		t.Fatal(err)
	}
	k.spec.Stream += "-short"
	k.append(0, 10)
	_, ch := k.read(acemq.StreamOffset(2), nil)
	if got := offsets(take(t, ch, 3)); !slices.Equal(got, []int64{7, 8, 9}) {
		t.Errorf("read offsets %v, want the 3 records retention kept", got)
	}
	select {
	case g := <-gaps:
		if g.Stream != k.spec.Stream || g.First != 2 || g.Last != 6 || g.Lost() != 5 {
			t.Errorf("gap %+v, want offsets 2 to 6 of %s", g, k.spec.Stream)
		}
	default:
		t.Error("no gap was reported")
	}
}

// projection folds records into a sum per offset: what a read model built
// from the records would hold.
func projection(gs []got) map[int64]int {
	p := map[int64]int{}
	for _, g := range gs {
		p[g.offset] += g.n
	}
	return p
}

func TestStreamTwoReadersFromATimestampBuildTheSameProjectionAsOneFromFirst(t *testing.T) {
	onEachTransport(t, func(k *streamKit) {
		k.append(0, 5)
		time.Sleep(1100 * time.Millisecond) // a timestamp position counts whole seconds
		point := time.Now()
		time.Sleep(1100 * time.Millisecond)
		k.append(5, 12)
		_, all := k.read(acemq.StreamFirst(), nil)
		var after []got
		for _, g := range take(t, all, 12) {
			if !g.at.Before(point) {
				after = append(after, g)
			}
		}
		want := projection(after)
		if len(want) != 7 {
			t.Fatalf("the reader from first saw %d records after the point, want 7: %v", len(want), after)
		}
		for i := range 2 {
			_, since := k.read(acemq.StreamSince(point), nil)
			if got := projection(take(t, since, 7)); !maps.Equal(got, want) {
				t.Errorf("reader %d from the timestamp built %v, want %v", i, got, want)
			}
		}
	})
}

func TestStreamReaderBehindRabbitMQRetentionReportsTheGap(t *testing.T) {
	gaps := make(chan patterns.StreamGap, 10)
	spec := &acemqimpl.StreamSpec[rec]{MaxBytes: 4000, SegmentBytes: 1000}
	k := newStreamKit(t, acemqtest.BrokerURL(t), spec, patterns.OnStreamGap(func(g patterns.StreamGap) { gaps <- g }))
	k.append(0, 200)
	_, ch := k.read(acemq.StreamOffset(0), nil)
	var first got
	select {
	case first = <-ch:
	case <-time.After(10 * time.Second):
		t.Fatal("the reader read nothing")
	}
	if first.offset == 0 {
		t.Skip("the broker has not applied retention yet; nothing was lost")
	}
	select {
	case g := <-gaps:
		if g.Stream != k.spec.Stream || g.First != 0 || g.Last != first.offset-1 {
			t.Errorf("gap %+v, want offsets 0 to %d of %s (the first record read is %d)", g, first.offset-1, k.spec.Stream, first.offset)
		}
	default:
		t.Errorf("the reader asked for offset 0, read %d first and reported no gap", first.offset)
	}
}

// syncBuffer is a log sink safe for concurrent writes.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestStreamReaderClosingWithRecordsWaitingNeverNacksAndTheNextReaderGetsThem(t *testing.T) {
	var logs syncBuffer
	onEachTransport(t, func(k *streamKit) {
		k.append(0, 20)
		release := make(chan struct{})
		c, ch := k.read(acemq.StreamFirst(), func(m acemq.Message[rec]) acemq.Ack {
			if m.Stream.Offset == 1 {
				<-release
			}
			return acemq.Accept()
		})
		take(t, ch, 2) // record 1 blocks; up to the prefetch wait behind it
		closed := make(chan error, 1)
		go func() { closed <- c.Close() }()
		time.Sleep(100 * time.Millisecond)
		close(release)
		if err := <-closed; err != nil {
			t.Fatal(err)
		}
		if strings.Contains(logs.String(), "NOT_IMPLEMENTED") {
			t.Errorf("the reader nacked a stream record:\n%s", logs.String())
		}
		_, again := k.read(acemq.StreamOffset(2), nil)
		if got := offsets(take(t, again, 18)); got[0] != 2 || got[17] != 19 {
			t.Errorf("the next reader from offset 2 read %v, want 2..19", got)
		}
	}, acemq.WithLogger(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
}

func TestStreamReadRefusesANegativeOffsetAndATimeBefore1970(t *testing.T) {
	k := newStreamKit(t, "memory://"+acemq.NewUUID(), nil)
	for from, want := range map[acemq.StreamPosition]string{
		acemq.StreamOffset(-1):              "StreamOffset(-1)",
		acemq.StreamSince(time.Time{}):      "StreamSince(0001-01-01T00:00:00Z)",
		acemq.StreamSince(time.Unix(-1, 0)): "is it the zero time?",
	} {
		_, err := k.spec.Read(k.ctx, k.conn, from, func(_ context.Context, _ acemq.Message[rec]) acemq.Ack { return acemq.Accept() })
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Read from %s: %v, want it refused saying %q", want, err, want)
		}
	}
}

func TestStreamReadOfAQueueThatIsNotAStreamIsRefused(t *testing.T) {
	onEachTransport(t, func(k *streamKit) {
		stream := k.spec.Stream
		t.Cleanup(func() { _ = k.conn.DeleteQueue(context.Background(), stream) })
		k.spec.Stream += "-classic"
		if err := acemq.NewTopology().Queue(k.spec.Stream, acemq.OfType(acemq.QueueClassic)).Apply(k.ctx, k.conn); err != nil {
			t.Fatal(err)
		}
		k.append(0, 3)
		_, err := k.spec.Read(k.ctx, k.conn, acemq.StreamFirst(), func(_ context.Context, _ acemq.Message[rec]) acemq.Ack { return acemq.Accept() })
		if err == nil || !strings.Contains(err.Error(), "invalid arg 'x-stream-offset'") {
			t.Fatalf("Read of a classic queue: %v, want RabbitMQ's 406 invalid arg 'x-stream-offset'", err)
		}
		if n := len(k.pullAll(k.spec.Stream)); n != 3 {
			t.Errorf("the classic queue holds %d messages after the refused Read, want the 3 untouched", n)
		}
	})
}
