package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // database/sql "pgx"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/outbox"
)

// outboxStream is -postgres's second stream through the same faults:
// events committed through outbox.Within in transactions of 10 (every
// fifth rolled back), relayed by outbox.Relay, handled behind outbox.Once,
// each handler writing its event's number into a table of its own in the
// inbox's transaction. Every committed row is to be handled exactly once
// and no rolled-back one seen.
type outboxStream struct {
	db         *sql.DB
	store      *outbox.Store
	inbox      *outbox.Inbox
	queue      string
	handled    string // the handlers' table
	mu         sync.Mutex
	committed  map[int64]bool
	rolledBack map[int64]bool
	unknown    int // rows of a commit that failed: their outcome is not known
}

// newOutboxStream creates the tables and the queue and starts the consumer
// on sub; names are suffixed with suffix.
func newOutboxStream(ctx context.Context, dsn string, pub, sub *acemq.Conn, suffix string) (*outboxStream, *acemq.Consumer, error) {
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, nil, err
	}
	s := &outboxStream{db: db, store: outbox.NewStore(db, outbox.Table("soak_outbox_"+suffix)),
		inbox: outbox.NewInbox(db, outbox.Table("soak_inbox_"+suffix)), queue: "soak-outbox-" + suffix,
		handled: "soak_handled_" + suffix, committed: map[int64]bool{}, rolledBack: map[int64]bool{}}
	if err := s.migrate(ctx, pub); err != nil {
		return nil, nil, err
	}
	h := outbox.Once(s.inbox, func(ctx context.Context, tx *sql.Tx, m acemq.Message[msg]) acemq.Ack {
		if _, err := tx.ExecContext(ctx, `INSERT INTO `+s.handled+` (n) VALUES ($1)`, m.Payload.N); err != nil {
			return acemq.Retry(err)
		}
		return acemq.Accept()
	})
	cons, err := acemq.Consume(ctx, sub, s.queue, h, acemq.Prefetch(50), acemq.Concurrency(4))
	return s, cons, err
}

func (s *outboxStream) migrate(ctx context.Context, pub *acemq.Conn) error {
	if err := s.store.Migrate(ctx); err != nil {
		return err
	}
	if err := s.inbox.Migrate(ctx); err != nil {
		return err
	}
	if _, err := s.db.ExecContext(ctx, `CREATE TABLE `+s.handled+` (n bigint NOT NULL)`); err != nil {
		return err
	}
	return acemq.NewTopology().Queue(s.queue).Apply(ctx, pub)
}

// produce commits (or rolls back) transactions of events until ctx ends.
func (s *outboxStream) produce(ctx context.Context, pub *acemq.Conn) {
	for k := int64(0); ctx.Err() == nil; k++ {
		s.transaction(ctx, pub, k, k%5 == 4)
		time.Sleep(20 * time.Millisecond)
	}
}

// transaction k holds events 10k to 10k+9, committed or rolled back.
func (s *outboxStream) transaction(ctx context.Context, pub *acemq.Conn, k int64, rollback bool) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return
	}
	p := acemq.NewPublisher[msg](outbox.Within(pub, s.store, tx), "", s.queue)
	for n := 10 * k; n < 10*k+10; n++ {
		if err := p.Send(ctx, msg{N: n}); err != nil {
			_ = tx.Rollback()
			return
		}
	}
	s.settle(k, rollback, tx)
}

func (s *outboxStream) settle(k int64, rollback bool, tx *sql.Tx) {
	var err error
	if rollback {
		err = tx.Rollback()
	} else {
		err = tx.Commit()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for n := 10 * k; n < 10*k+10; n++ {
		switch {
		case err != nil && !rollback:
			s.unknown++
		case rollback:
			s.rolledBack[n] = true
		default:
			s.committed[n] = true
		}
	}
}

// handledCounts reads how many times each event was handled.
func (s *outboxStream) handledCounts(ctx context.Context) (map[int64]int, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT n, count(*) FROM `+s.handled+` GROUP BY n`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	got := map[int64]int{}
	for rows.Next() {
		var n int64
		var c int
		if err := rows.Scan(&n, &c); err != nil {
			return nil, err
		}
		got[n] = c
	}
	return got, rows.Err()
}

// wait waits until every committed event was handled, a minute without
// progress, or ctx's end.
func (s *outboxStream) wait(ctx context.Context) (map[int64]int, error) {
	last, since := -1, time.Now()
	for {
		got, err := s.handledCounts(ctx)
		if err == nil && len(got) != last {
			last, since = len(got), time.Now()
		}
		s.mu.Lock()
		want := len(s.committed)
		s.mu.Unlock()
		if err == nil && len(got) >= want || time.Since(since) > time.Minute || ctx.Err() != nil {
			return got, errors.Join(err, ctx.Err())
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// outboxReport is the outbox stream's outcome.
type outboxReport struct {
	committed, rolledBack, unknown, once, twice, missing, rolledBackSeen, strangers int
	err                                                                             error // reading the handlers' table
}

func (s *outboxStream) report(got map[int64]int) outboxReport {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := outboxReport{committed: len(s.committed), rolledBack: len(s.rolledBack), unknown: s.unknown}
	for n := range s.committed {
		switch got[n] {
		case 0:
			r.missing++
		case 1:
			r.once++
		default:
			r.twice++
		}
	}
	for n := range got {
		if s.rolledBack[n] {
			r.rolledBackSeen++
		} else if !s.committed[n] {
			r.strangers++ // a failed commit's row, or one never written
		}
	}
	return r
}

func (r outboxReport) problems() []string {
	var p []string
	if r.err != nil {
		p = append(p, fmt.Sprintf("outbox: %v", r.err))
	}
	if r.missing > 0 || r.twice > 0 {
		p = append(p, fmt.Sprintf("outbox: %d committed rows not handled, %d handled more than once", r.missing, r.twice))
	}
	if r.rolledBackSeen > 0 {
		p = append(p, fmt.Sprintf("outbox: %d rolled-back rows were handled", r.rolledBackSeen))
	}
	if r.strangers > r.unknown {
		p = append(p, fmt.Sprintf("outbox: %d handled rows were never committed", r.strangers))
	}
	return p
}

func (r outboxReport) print(w io.Writer) {
	fmt.Fprintf(w, "outbox: %d rows committed, %d rolled back, %d of failed commits; handled once %d, more than once %d, not handled %d, rolled back but handled %d\n",
		r.committed, r.rolledBack, r.unknown, r.once, r.twice, r.missing, r.rolledBackSeen)
}

// drop removes the stream's tables and queue.
func (s *outboxStream) drop(ctx context.Context, conn *acemq.Conn) {
	for _, t := range []string{s.handled, s.store.Name(), s.inbox.Name()} {
		_, _ = s.db.ExecContext(ctx, `DROP TABLE IF EXISTS "`+t+`" CASCADE`)
	}
	for _, q := range []string{`DROP SEQUENCE IF EXISTS "` + s.store.Name() + `_commit_seq"`, `DROP FUNCTION IF EXISTS "` + s.store.Name() + `_commit_order"()`} {
		_, _ = s.db.ExecContext(ctx, q)
	}
	_ = conn.DeleteQueue(ctx, s.queue)
	_ = s.db.Close()
}

// outboxRun is the outbox stream running beside the soak: its producer
// (bounded by the soak's duration) and relay.
type outboxRun struct {
	s        *outboxStream
	cons     *acemq.Consumer
	produced sync.WaitGroup
	relayed  sync.WaitGroup
	stop     context.CancelFunc // the relay's
}

// startOutbox starts the stream when -postgres is given; nil otherwise.
func startOutbox(ctx context.Context, o options, pub, sub *acemq.Conn, suffix string) (*outboxRun, error) {
	if o.postgres == "" {
		return nil, nil
	}
	s, cons, err := newOutboxStream(ctx, o.postgres, pub, sub, suffix)
	if err != nil {
		return nil, fmt.Errorf("outbox stream: %w", err)
	}
	r := &outboxRun{s: s, cons: cons}
	rctx, stop := context.WithCancel(ctx)
	r.stop = stop
	relay := outbox.NewRelay(pub, s.store, outbox.PollInterval(100*time.Millisecond))
	r.relayed.Go(func() { _ = relay.Run(rctx) })
	pctx, cancel := context.WithTimeout(ctx, o.duration)
	r.produced.Go(func() { defer cancel(); s.produce(pctx, pub) })
	return r, nil
}

// finish waits for the producer, then for every committed row to be
// handled, stops the relay and the consumer, and returns the report.
func (r *outboxRun) finish(ctx context.Context, conn *acemq.Conn) *outboxReport {
	if r == nil {
		return nil
	}
	r.produced.Wait()
	got, err := r.s.wait(ctx)
	r.stop()
	r.relayed.Wait()
	_ = r.cons.Close()
	rep := r.s.report(got)
	if err != nil {
		rep.err = err
	}
	r.s.drop(ctx, conn)
	return &rep
}
