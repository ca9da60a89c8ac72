package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
	"github.com/acemq/acemq-gen/runtime/patterns"
	"github.com/acemq/acemq-gen/runtime/rabbitmq"
)

// msg is the soak's payload: its number decides its fate.
type msg struct {
	N int64 `json:"n"`
}

// connOptions are the options of the soak's connections: a cluster's
// redial delay, NackRetries for the moments after a leader's death, a short
// ConfirmTimeout for wedged connections, quorum set-aside queues.
func connOptions(name string, rec func(rabbitmq.RecoveryEvent)) []acemq.ConnOption {
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	return []acemq.ConnOption{rabbitmq.Name(name), rabbitmq.RecoveryDelay(time.Second, 5*time.Second),
		rabbitmq.NackRetries(20), rabbitmq.ConfirmTimeout(15 * time.Second), rabbitmq.OnRecovery(rec),
		acemq.SetAsideQueuesOfType(acemq.QueueQuorum), acemq.WithLogger(quiet)}
}

func run(ctx context.Context, o options) (*report, error) {
	l, ch := newLedger(), newChaos(o)
	l.onOK, l.onHandled = ch.confirmed, ch.handled
	pubConn, err := acemq.Connect(ctx, o.url, connOptions("soak-publishers", ch.recovery)...)
	if err != nil {
		return nil, err
	}
	defer pubConn.Close()
	subConn, err := acemq.Connect(ctx, o.url, append(connOptions("soak-consumers", func(rabbitmq.RecoveryEvent) {}), rabbitmq.ShuffleHosts())...)
	if err != nil {
		return nil, err
	}
	defer subConn.Close()
	q := "soak-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	if err := acemq.NewTopology().Queue(q).DeadLetters(q).Apply(ctx, pubConn); err != nil {
		return nil, err
	}
	ch.pub, ch.queue = pubConn.Transport().(*rabbitmq.Transport), q
	cons, err := consume(ctx, subConn, q, l)
	if err != nil {
		return nil, err
	}
	ob, err := startOutbox(ctx, o, pubConn, subConn, q[len("soak-"):])
	if err != nil {
		return nil, err
	}
	elapsed := publishAll(ctx, o, pubConn, q, l, ch)
	ch.wait()
	drained := drain(ctx, o, l)
	_ = cons.Close()
	rep := &report{o: o, l: l, elapsed: elapsed, drained: drained, chaos: ch.summary(), outbox: ob.finish(ctx, pubConn)}
	rep.setAside, rep.setAsideDupes, err = collectSetAside(ctx, subConn, q)
	if err != nil {
		return nil, err
	}
	cleanUp(ctx, pubConn, q)
	return rep, nil
}

// publishAll runs the producers for the duration (or up to -max), with the
// chaos loop beside them, and returns how long they published.
func publishAll(ctx context.Context, o options, conn *acemq.Conn, q string, l *ledger, ch *chaos) time.Duration {
	pctx, stop := publishWindow(ctx, o, ch)
	defer stop()
	pub := acemq.NewPublisher[msg](conn, "", q, acemq.Mandatory[msg]())
	l.pace = pacer(pctx, o.rate)
	var chaosDone sync.WaitGroup
	if o.chaos {
		chaosDone.Go(func() { ch.loop(pctx) })
	}
	start := time.Now()
	var wg sync.WaitGroup
	for range o.producers {
		wg.Go(func() { produce(pctx, o, pub, l) })
	}
	wg.Go(func() { produceAsync(pctx, o, pub, l) })
	wg.Wait()
	elapsed := time.Since(start)
	stop()
	chaosDone.Wait()
	return elapsed
}

// sendTimeout bounds each Send and Wait: long, so that an error means the
// cluster did not recover in that time.
const sendTimeout = 2 * time.Minute

// pacer returns a channel giving rate tokens a second until ctx ends, or
// nil (no pacing) for rate 0.
func pacer(ctx context.Context, rate int) chan struct{} {
	if rate <= 0 {
		return nil
	}
	c := make(chan struct{})
	go func() {
		t := time.NewTicker(time.Second / time.Duration(rate))
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				close(c)
				return
			case <-t.C:
				select {
				case c <- struct{}{}:
				case <-ctx.Done():
				}
			}
		}
	}()
	return c
}

// paced waits for a token of -rate; false once publishing is over.
func (l *ledger) paced(ctx context.Context) bool {
	if l.pace != nil {
		<-l.pace
	}
	return ctx.Err() == nil
}

// take waits for the pace and returns the next message's number; false
// once ctx has ended or the number would pass limit.
func (l *ledger) take(ctx context.Context, limit int64) (int64, bool) {
	if !l.paced(ctx) {
		return 0, false
	}
	n := l.next.Add(1)
	return n, n <= limit
}

func produce(ctx context.Context, o options, pub *acemq.Publisher[msg], l *ledger) {
	for n, ok := l.take(ctx, o.max); ok; n, ok = l.take(ctx, o.max) {
		start := time.Now()
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), sendTimeout)
		err := pub.Send(sctx, msg{N: n})
		cancel()
		l.published(n, start, err)
	}
}

// produceAsync publishes through SendAsync with up to 64 pending at once.
func produceAsync(ctx context.Context, o options, pub *acemq.Publisher[msg], l *ledger) {
	type inFlight struct {
		n     int64
		start time.Time
		pd    *acemq.Pending
	}
	var window []inFlight
	settle := func(f inFlight) {
		wctx, cancel := context.WithTimeout(context.Background(), sendTimeout)
		_, err := f.pd.Wait(wctx)
		cancel()
		l.published(f.n, f.start, err)
	}
	for n, ok := l.take(ctx, o.max); ok; n, ok = l.take(ctx, o.max) {
		start := time.Now()
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), sendTimeout)
		pd, err := pub.SendAsync(sctx, msg{N: n})
		cancel()
		if err != nil {
			l.published(n, start, err)
			continue
		}
		if window = append(window, inFlight{n, start, pd}); len(window) == 64 {
			settle(window[0])
			window = window[1:]
		}
	}
	for _, f := range window {
		settle(f)
	}
}

// consume handles q with the mix of fates behind WithIdempotency.
func consume(ctx context.Context, conn *acemq.Conn, q string, l *ledger) (*acemq.Consumer, error) {
	inner := func(_ context.Context, m acemq.Message[msg]) acemq.Ack {
		switch fateOf(m.Payload.N) {
		case fateRetryThenAccept:
			if m.Envelope.Attempt == 1 {
				return acemq.Retry(errors.New("soak retry"))
			}
		case fateReject:
			return acemq.Reject(errors.New("soak reject"))
		case fatePanic:
			panic("soak panic")
		case fatePark:
			return acemq.Park(errors.New("soak park"))
		}
		l.accept(m.Payload.N)
		return acemq.Accept()
	}
	guarded := patterns.WithIdempotency[msg](patterns.NewInMemoryIdempotencyStore(time.Hour))(inner)
	outer := func(ctx context.Context, m acemq.Message[msg]) acemq.Ack {
		l.delivery(m.Envelope.ID + "/" + strconv.Itoa(m.Envelope.Attempt))
		return guarded(ctx, m)
	}
	return acemq.Consume(ctx, conn, q, outer, acemq.Prefetch(200), acemq.Concurrency(8),
		acemq.RetryWith(acemq.FixedRetry(3, 20*time.Millisecond)))
}

// drain waits until every sent message that is to be accepted was, while
// the consumers make progress (a minute without any fails the wait), at
// most -drain; it reports whether everything arrived.
func drain(ctx context.Context, o options, l *ledger) bool {
	want := 0
	l.mu.Lock()
	for n := range l.sent {
		if f := fateOf(n); f == fateAccept || f == fateRetryThenAccept {
			want++
		}
	}
	l.mu.Unlock()
	deadline := time.Now().Add(o.drain)
	last, lastAt := -1, time.Now()
	for time.Now().Before(deadline) && ctx.Err() == nil {
		got := l.acceptedAmongSent()
		if got >= want {
			return true
		}
		if got > last {
			last, lastAt = got, time.Now()
		} else if time.Since(lastAt) > time.Minute {
			return false
		}
		time.Sleep(100 * time.Millisecond)
	}
	return false
}

// acceptedAmongSent counts the sent messages to accept that were accepted.
func (l *ledger) acceptedAmongSent() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for id := range l.accepted {
		if l.sent[id] {
			n++
		}
	}
	return n
}

// setAsideEntry is one message found in {queue}.dlq or {queue}.parked.
type setAsideEntry struct {
	queue, reason string
}

// collectSetAside reads every message of q's set-aside queues (through a
// plain subscription with a large prefetch: a basic.get each is slow on a
// quorum queue): by message number, where it was and why; copies beyond the
// first are counted.
func collectSetAside(ctx context.Context, conn *acemq.Conn, q string) (map[int64]setAsideEntry, int, error) {
	got, dupes := map[int64]setAsideEntry{}, 0
	tr := conn.Transport().(*rabbitmq.Transport)
	for _, sq := range []string{acemq.DeadLetterQueue(q), acemq.ParkedQueue(q)} {
		ds, err := readAll(ctx, tr, sq)
		if err != nil {
			return nil, 0, err
		}
		for _, d := range ds {
			var m msg
			if err := json.Unmarshal(d.Body, &m); err != nil {
				return nil, 0, fmt.Errorf("a message of %s does not decode: %w", sq, err)
			}
			if _, seen := got[m.N]; seen {
				dupes++
				continue
			}
			reason, _ := d.Headers[semconv.HeaderError].(string)
			got[m.N] = setAsideEntry{queue: sq, reason: reason}
		}
	}
	return got, dupes, nil
}

// readAll consumes and acks every message of queue until it is empty and
// nothing arrived for a few seconds.
func readAll(ctx context.Context, tr *rabbitmq.Transport, queue string) ([]driver.Delivery, error) {
	c := make(chan driver.Delivery, 4096)
	sub, err := tr.Consume(ctx, queue, driver.ConsumeSpec{Prefetch: 2000}, func(d driver.Delivery) { c <- d })
	if err != nil {
		return nil, err
	}
	defer sub.Close()
	var out []driver.Delivery
	for {
		select {
		case d := <-c:
			_ = d.Ack()
			out = append(out, d)
		case <-time.After(3 * time.Second):
			if n, err := tr.MessageCount(ctx, queue); err != nil || n == 0 {
				return out, err
			}
		case <-ctx.Done():
			return out, ctx.Err()
		}
	}
}

func cleanUp(ctx context.Context, conn *acemq.Conn, q string) {
	tr, ok := conn.Transport().(*rabbitmq.Transport)
	if !ok {
		return
	}
	for _, name := range []string{q, acemq.DeadLetterQueue(q), acemq.ParkedQueue(q)} {
		_ = tr.DeleteQueue(ctx, name)
	}
}
