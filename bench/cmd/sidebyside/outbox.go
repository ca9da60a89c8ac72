package main

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // database/sql "pgx"
	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/outbox"
)

// outboxTable is a fresh outbox table of its own, migrated, and how to drop
// it (the table, its commit-order sequence and trigger function).
func outboxTable(ctx context.Context, e *env) (*outbox.Store, func(), error) {
	db, err := e.database()
	if err != nil {
		return nil, nil, err
	}
	name := "sbs_" + queueName("ob")[4:]
	name = sqlName(name)
	store := outbox.NewStore(db, outbox.Table(name))
	drop := func() {
		_, _ = db.Exec(`DROP TABLE IF EXISTS "` + name + `"`)
		_, _ = db.Exec(`DROP SEQUENCE IF EXISTS "` + name + `_commit_seq"`)
		_, _ = db.Exec(`DROP FUNCTION IF EXISTS "` + name + `_commit_order"()`)
	}
	if err := store.Migrate(ctx); err != nil {
		drop()
		return nil, nil, err
	}
	return store, drop, nil
}

// sqlName turns a queue-style name into an SQL identifier.
func sqlName(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c == '-' {
			b[i] = '_'
		}
	}
	return string(b)
}

// fillOutbox commits n events for q into store through outbox.Within and the
// typed publisher, 1,000 per transaction (not timed): the rows carry the
// family's headers, as any typed publish would.
func fillOutbox(ctx context.Context, e *env, conn *acemq.Conn, store *outbox.Store, q string, n int) error {
	db, err := e.database()
	if err != nil {
		return err
	}
	for done := 0; done < n; done += window {
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		pub := acemq.NewPublisher[event](outbox.Within(conn, store, tx), "", q)
		for i := done; i < min(n, done+window); i++ {
			if err := pub.Send(ctx, newEvent(i)); err != nil {
				_ = tx.Rollback()
				return err
			}
		}
		if err := tx.Commit(); err != nil {
			return err
		}
	}
	return nil
}

// outboxSetup is a queue on conn, a fresh outbox table holding n committed
// events for it, and how to remove both.
func outboxSetup(ctx context.Context, e *env, prefix string, n int) (*acemq.Conn, *outbox.Store, string, func(), error) {
	conn, q, err := acemqQueue(ctx, e, prefix)
	if err != nil {
		return nil, nil, "", nil, err
	}
	store, drop, err := outboxTable(ctx, e)
	if err != nil {
		closing(e, conn, q)()
		return nil, nil, "", nil, err
	}
	teardown := func() { drop(); closing(e, conn, q)() }
	if err := fillOutbox(ctx, e, conn, store, q, n); err != nil {
		teardown()
		return nil, nil, "", nil, err
	}
	return conn, store, q, teardown, nil
}

// outboxRelay times outbox.Relay (its defaults: batches of 500) draining n
// committed rows: from Run until the relay has deleted every row, each after
// its confirm.
func outboxRelay(ctx context.Context, e *env, n int) (trial, error) {
	conn, store, q, teardown, err := outboxSetup(ctx, e, "relay", n)
	if err != nil {
		return trial{}, err
	}
	stop := func() {}
	run := func(ctx context.Context) error {
		relay := outbox.NewRelay(conn, store)
		rctx, cancel := context.WithCancel(ctx)
		done := make(chan error, 1)
		go func() { done <- relay.Run(rctx) }()
		stop = sync.OnceFunc(func() { cancel(); <-done })
		for relay.Stats().Published < int64(n) {
			select {
			case err := <-done:
				return fmt.Errorf("the relay stopped after %d of %d: %v", relay.Stats().Published, n, err)
			case <-ctx.Done():
				return fmt.Errorf("relayed %d of %d: %w", relay.Stats().Published, n, ctx.Err())
			case <-time.After(time.Millisecond):
			}
		}
		return nil
	}
	verify := func(ctx context.Context) error {
		stop()
		return verifyDrained(ctx, e, store.Name(), q, n)
	}
	return trial{run: run, verify: verify, teardown: func() { stop(); teardown() }}, nil
}

// verifyDrained checks the table is empty and the queue holds n messages.
func verifyDrained(ctx context.Context, e *env, table, q string, n int) error {
	db, err := e.database()
	if err != nil {
		return err
	}
	var left int
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM "`+table+`"`).Scan(&left); err != nil {
		return err
	}
	if left != 0 {
		return fmt.Errorf("%d rows left in %s", left, table)
	}
	return verifyQueue(e, q, n)
}

// verifyQueue checks q holds exactly n messages.
func verifyQueue(e *env, q string, n int) error {
	return withChannel(e.url, func(ch *amqp.Channel) error {
		st, err := ch.QueueDeclarePassive(q, true, false, false, false, quorumArgs)
		if err != nil {
			return err
		}
		if st.Messages != n {
			return fmt.Errorf("queue %s holds %d messages, want %d", q, st.Messages, n)
		}
		return nil
	})
}

// outboxLatency commits n events one transaction at a time at a steady
// rate (rate per second) through outbox.Within while a relay runs, and
// records, per event, the time from its commit returning to its handler
// (acemq.Consume on the queue) running.
func outboxLatency(rate int) func(context.Context, *env, int) (trial, error) {
	return func(ctx context.Context, e *env, n int) (trial, error) {
		conn, q, err := acemqQueue(ctx, e, "latency")
		if err != nil {
			return trial{}, err
		}
		store, drop, err := outboxTable(ctx, e)
		if err != nil {
			closing(e, conn, q)()
			return trial{}, err
		}
		db, _ := e.database()
		lat := newLatencies(n)
		c, err := acemq.Consume(ctx, conn, q, func(_ context.Context, m acemq.Message[event]) acemq.Ack {
			lat.received(int(m.Payload.ID))
			return acemq.Accept()
		}, acemq.Prefetch(window))
		if err != nil {
			drop()
			closing(e, conn, q)()
			return trial{}, err
		}
		relay := outbox.NewRelay(conn, store)
		rctx, cancel := context.WithCancel(context.Background())
		relayDone := make(chan error, 1)
		go func() { relayDone <- relay.Run(rctx) }()
		teardown := func() {
			cancel()
			<-relayDone
			_ = c.Close()
			drop()
			closing(e, conn, q)()
		}
		run := func(ctx context.Context) error {
			pub := func(i int) error {
				tx, err := db.BeginTx(ctx, nil)
				if err != nil {
					return err
				}
				p := acemq.NewPublisher[event](outbox.Within(conn, store, tx), "", q)
				if err := p.Send(ctx, newEvent(i)); err != nil {
					_ = tx.Rollback()
					return err
				}
				if err := tx.Commit(); err != nil {
					return err
				}
				lat.committed(i)
				return nil
			}
			if err := steady(ctx, n, rate, pub); err != nil {
				return err
			}
			return lat.wait(ctx)
		}
		return trial{run: run, teardown: teardown, latencies: lat.durations}, nil
	}
}

// steady calls f(0..n-1) at rate calls per second (on a ticker; a call
// that runs late delays the next ones, it does not pile them up).
func steady(ctx context.Context, n, rate int, f func(i int) error) error {
	t := time.NewTicker(time.Second / time.Duration(rate))
	defer t.Stop()
	for i := range n {
		if err := f(i); err != nil {
			return err
		}
		select {
		case <-t.C:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// latencies records per event when it was committed and when it was handled.
type latencies struct {
	commit, recv []atomic.Int64 // unix nanoseconds; 0: not yet
	got          atomic.Int64
	all          chan struct{}
	once         sync.Once
}

func newLatencies(n int) *latencies {
	return &latencies{commit: make([]atomic.Int64, n), recv: make([]atomic.Int64, n), all: make(chan struct{})}
}

func (l *latencies) committed(i int) { l.commit[i].Store(time.Now().UnixNano()) }

// received records event i's first arrival (a redelivery is ignored).
func (l *latencies) received(i int) {
	if i < 0 || i >= len(l.recv) || !l.recv[i].CompareAndSwap(0, time.Now().UnixNano()) {
		return
	}
	if int(l.got.Add(1)) == len(l.recv) {
		l.once.Do(func() { close(l.all) })
	}
}

// wait returns once every event was handled.
func (l *latencies) wait(ctx context.Context) error {
	select {
	case <-l.all:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("handled %d of %d: %w", l.got.Load(), len(l.recv), ctx.Err())
	}
}

// durations are the commit-to-handler times (a handler that ran before its
// commit returned to the caller counts as 0).
func (l *latencies) durations() []time.Duration {
	out := make([]time.Duration, len(l.recv))
	for i := range l.recv {
		out[i] = max(0, time.Duration(l.recv[i].Load()-l.commit[i].Load()))
	}
	return out
}

// database opens the PostgreSQL database once.
func (e *env) database() (*sql.DB, error) {
	e.dbOnce.Do(func() {
		if e.pgURL == "" {
			e.dbErr = fmt.Errorf("no PostgreSQL (-pg or -pgport)")
			return
		}
		e.db, e.dbErr = sql.Open("pgx", e.pgURL)
		if e.dbErr == nil {
			e.db.SetMaxOpenConns(16)
			e.dbErr = e.db.Ping()
		}
	})
	return e.db, e.dbErr
}
