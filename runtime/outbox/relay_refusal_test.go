package outbox

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// errChannelClosed is the fate of a publish written on a channel the broker
// has closed: not a refusal of that message, its outcome unknown.
var errChannelClosed = errors.New("rabbitmq: the channel was closed before the confirm")

// closingTransport behaves as RabbitMQ does with a message it refuses by
// closing the channel (a 404 for an undeclared exchange, a 406 for a body over
// max_message_size): a publish to refusedExchange fails with
// acemq.ErrBrokerRefused, and every publish written after it, until its
// outcome has been read (the channel reopened), is discarded and fails
// without being a refusal. Close leaves the wrapped transport open.
type closingTransport struct {
	driver.Transport
	refusedExchange string
	mu              sync.Mutex
	closed          bool
}

func (c *closingTransport) Close() error { return nil }

func (c *closingTransport) Publish(ctx context.Context, exchange, key string, msg driver.Outbound) (acemq.PublishResult, error) {
	conf, err := c.PublishAsync(ctx, exchange, key, msg)
	if err != nil {
		return acemq.PublishResult{}, err
	}
	return conf.Wait(ctx)
}

func (c *closingTransport) PublishAsync(ctx context.Context, exchange, key string, msg driver.Outbound) (driver.Confirmation, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return driver.ConfirmationOf(acemq.PublishResult{}, errChannelClosed), nil
	}
	if exchange == c.refusedExchange {
		c.closed = true
		return reopening{c}, nil
	}
	return driver.ConfirmationOf(c.Transport.Publish(ctx, exchange, key, msg)), nil
}

// reopening is the refused publish's confirmation: reading it reopens the channel.
type reopening struct{ c *closingTransport }

func (r reopening) Wait(context.Context) (acemq.PublishResult, error) {
	r.c.mu.Lock()
	r.c.closed = false
	r.c.mu.Unlock()
	return acemq.PublishResult{}, fmt.Errorf("rabbitmq: 404 NOT_FOUND - no exchange %q: %w", r.c.refusedExchange, acemq.ErrBrokerRefused)
}

// syncBuffer is a log destination safe for concurrent use.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
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

// refusalFixture is a store whose first row goes to an exchange the broker
// refuses by closing the channel, then good rows to q, and a relay
// connection on closingTransport logging into logs.
type refusalFixture struct {
	db    *sql.DB
	store *Store
	relay *acemq.Conn
	tally *tally
	logs  *syncBuffer
}

func newRefusalFixture(t *testing.T, good int) *refusalFixture {
	db := database(t)
	store, _, conn, q := setup(t, db, "")
	f := &refusalFixture{db: db, store: store, tally: &tally{}, logs: &syncBuffer{}}
	consume(t, conn, q, f.tally.handle)
	missing := "no-such-exchange-" + acemq.NewUUID()
	inTx(t, db, true, func(tx *sql.Tx) {
		if err := acemq.NewPublisher[order](Within(conn, store, tx), missing, "k").Send(t.Context(), order{ID: "refused"}); err != nil {
			t.Fatal(err)
		}
	})
	write(t, db, conn, store, q, 0, good)
	relay, err := acemq.NewConn(&closingTransport{Transport: conn.Transport(), refusedExchange: missing},
		acemq.WithLogger(slog.New(slog.NewTextHandler(f.logs, nil))))
	if err != nil {
		t.Fatal(err)
	}
	f.relay = relay
	return f
}

func TestRelayRetiresRowRefusedByBroker(t *testing.T) {
	f := newRefusalFixture(t, 5)
	r := startRelay(t, f.relay, f.store, MaxAttempts(3), PollInterval(20*time.Millisecond))
	eventually(t, 10*time.Second, "the refused row retires", func() bool { return r.Stats().Retired == 1 })
	var attempts int
	var lastError string
	if err := f.db.QueryRow(`SELECT attempts, last_error FROM `+f.store.table.quoted+` WHERE retired_at IS NOT NULL`).Scan(&attempts, &lastError); err != nil {
		t.Fatalf("no retired row: %v", err)
	}
	if attempts != 3 || !strings.Contains(lastError, "404") {
		t.Errorf("retired row: attempts %d, last error %q", attempts, lastError)
	}
	eventually(t, 5*time.Second, "the good rows published", func() bool { return r.Stats().Published == 5 })
	if s := r.Stats(); s.Failed != 3 || s.Published != 5 {
		t.Errorf("stats %+v, want 3 failed, 5 published", s)
	}
	logs := f.logs.String()
	if strings.Count(logs, "the broker refused a row") != 2 || strings.Count(logs, "retired a row") != 1 {
		t.Errorf("want two refusals and one retirement logged, got:\n%s", logs)
	}
	if strings.Contains(logs, "outage") {
		t.Errorf("a refusal was logged as an outage:\n%s", logs)
	}
}

func TestRelayRowsBehindARefusedRowAreNotHeldBack(t *testing.T) {
	f := newRefusalFixture(t, 5)
	r := startRelay(t, f.relay, f.store, MaxAttempts(1000), PollInterval(time.Hour))
	eventually(t, 3*time.Second, "the rows behind the refused one delivered", func() bool { d, _ := f.tally.counts(); return d == 5 })
	eventually(t, 3*time.Second, "5 rows counted published", func() bool { return r.Stats().Published == 5 })
	if s := r.Stats(); s.Retired != 0 {
		t.Errorf("stats %+v, want nothing retired", s)
	}
	if strings.Contains(f.logs.String(), "outage") {
		t.Errorf("a refusal was taken for an outage:\n%s", f.logs.String())
	}
}

func TestRelayDoesNotResendConfirmedRows(t *testing.T) {
	f := newRefusalFixture(t, 5)
	r := startRelay(t, f.relay, f.store, MaxAttempts(5), PollInterval(10*time.Millisecond))
	eventually(t, 10*time.Second, "the refused row retires", func() bool { return r.Stats().Retired == 1 })
	time.Sleep(100 * time.Millisecond)
	distinct, all := f.tally.counts()
	if distinct != 5 || all != 5 {
		t.Errorf("%d deliveries of %d distinct rows, want each of 5 rows once", all, distinct)
	}
	if n := rowCount(t, f.db, f.store); n != 1 {
		t.Errorf("%d rows left, want only the retired one", n)
	}
}

// stuckTransport never returns from a publish until its ctx ends, as
// main's RabbitMQ transport did with a header over frame_max.
type stuckTransport struct{ driver.Transport }

func (stuckTransport) Close() error { return nil }

func (stuckTransport) PublishAsync(ctx context.Context, _, _ string, _ driver.Outbound) (driver.Confirmation, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

func TestRelayStuckInAPublishSaysSo(t *testing.T) {
	db := database(t)
	store, _ := freshStore(t, db)
	conn := broker(t, "")
	write(t, db, conn, store, "q", 0, 3)
	logs := &syncBuffer{}
	stuck, err := acemq.NewConn(stuckTransport{conn.Transport()}, acemq.WithLogger(slog.New(slog.NewTextHandler(logs, nil))))
	if err != nil {
		t.Fatal(err)
	}
	r := NewRelay(stuck, store)
	r.slowAfter = 50 * time.Millisecond
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()
	defer func() { cancel(); <-done }()
	eventually(t, 5*time.Second, "the stuck batch logged twice", func() bool {
		return strings.Count(logs.String(), "has not confirmed a batch yet") >= 2
	})
	if !strings.Contains(logs.String(), "rows=3") {
		t.Errorf("the warning does not say how many rows wait:\n%s", logs)
	}
}

// flakyTransport has no pipelined path and loses its second publish once
// (an outage, not a refusal).
type flakyTransport struct {
	driver.Transport
	mu sync.Mutex
	n  int
}

func (*flakyTransport) Close() error { return nil }

func (f *flakyTransport) Publish(ctx context.Context, exchange, key string, msg driver.Outbound) (acemq.PublishResult, error) {
	f.mu.Lock()
	f.n++
	n := f.n
	f.mu.Unlock()
	if n == 2 {
		return acemq.PublishResult{}, errChannelClosed
	}
	return f.Transport.Publish(ctx, exchange, key, msg)
}

func TestRelayWithoutPipeliningStopsAtTheFirstOutage(t *testing.T) {
	db := database(t)
	store, _, conn, q := setup(t, db, "")
	c := collectOrders(t, conn, q)
	write(t, db, conn, store, q, 0, 5)
	flaky, err := acemq.NewConn(&flakyTransport{Transport: conn.Transport()}, acemq.WithLogger(slog.New(slog.NewTextHandler(&syncBuffer{}, nil))))
	if err != nil {
		t.Fatal(err)
	}
	startRelay(t, flaky, store, PollInterval(10*time.Millisecond))
	got := c.waitFor(t, 5, 10*time.Second)
	time.Sleep(100 * time.Millisecond)
	got = c.waitFor(t, 5, time.Second)
	if len(got) != 5 {
		t.Fatalf("%d deliveries of 5 rows: a row published past the outage was published again", len(got))
	}
	for i, m := range got {
		if m.Payload.ID != orderID(i) {
			t.Fatalf("delivery %d is %s: published out of commit order", i, m.Payload.ID)
		}
	}
}
