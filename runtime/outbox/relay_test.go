package outbox

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemqtest"
)

// write commits n orders, one transaction each, through Within.
func write(t testing.TB, db *sql.DB, conn *acemq.Conn, store *Store, q string, from, n int) {
	t.Helper()
	for i := from; i < from+n; i++ {
		inTx(t, db, true, func(tx *sql.Tx) {
			if err := acemq.NewPublisher[order](Within(conn, store, tx), "", q).Send(t.Context(), order{ID: orderID(i)}); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// tally counts deliveries per order id.
type tally struct {
	mu   sync.Mutex
	seen map[string]int
	all  int
}

func (y *tally) handle(_ context.Context, m acemq.Message[order]) acemq.Ack {
	y.mu.Lock()
	defer y.mu.Unlock()
	if y.seen == nil {
		y.seen = map[string]int{}
	}
	y.seen[m.Payload.ID]++
	y.all++
	return acemq.Accept()
}

func (y *tally) counts() (distinct, all int) {
	y.mu.Lock()
	defer y.mu.Unlock()
	return len(y.seen), y.all
}

func TestTwoRelaysOnOneTablePublishEachRowOnce(t *testing.T) {
	db := database(t)
	for name, url := range brokers(t) {
		t.Run(name, func(t *testing.T) {
			store, _, conn, q := setup(t, db, url)
			var y tally
			consume(t, conn, q, y.handle)
			const n = 300
			write(t, db, conn, store, q, 0, n/2)
			a := startRelay(t, conn, store, Batch(20), PollInterval(10*time.Millisecond))
			b := startRelay(t, conn, store, Batch(20), PollInterval(10*time.Millisecond))
			write(t, db, conn, store, q, n/2, n/2)
			eventually(t, 30*time.Second, "every row delivered", func() bool { d, _ := y.counts(); return d == n })
			eventually(t, 10*time.Second, "the table empty", func() bool { return rowCount(t, db, store) == 0 })
			if _, all := y.counts(); all != n {
				t.Fatalf("%d deliveries of %d rows: a row was published twice", all, n)
			}
			sa, sb := a.Stats(), b.Stats()
			if sa.Published+sb.Published != n {
				t.Errorf("relays published %d + %d, want %d in all", sa.Published, sb.Published, n)
			}
			t.Logf("relay A published %d rows, relay B %d", sa.Published, sb.Published)
		})
	}
}

func TestRelayKilledBetweenPublishAndMarkRepublishesAndTheInboxAbsorbsTheDuplicate(t *testing.T) {
	db := database(t)
	for name, url := range brokers(t) {
		t.Run(name, func(t *testing.T) {
			store, inbox, conn, q := setup(t, db, url)
			var deliveries, runs tally
			h := Once(inbox, func(ctx context.Context, tx *sql.Tx, m acemq.Message[order]) acemq.Ack {
				return runs.handle(ctx, m)
			})
			counted := func(ctx context.Context, m acemq.Message[order]) acemq.Ack {
				deliveries.handle(ctx, m)
				return h(ctx, m)
			}
			consume(t, conn, q, counted)
			write(t, db, conn, store, q, 0, 5)
			r := NewRelay(conn, store, PollInterval(10*time.Millisecond))
			killed := false
			r.beforeMark = func(context.Context, int) error {
				if killed {
					return nil
				}
				killed = true
				return errors.New("killed between publish and mark")
			}
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() { done <- r.Run(ctx) }()
			defer func() { cancel(); <-done }()
			eventually(t, 10*time.Second, "every order delivered twice", func() bool { _, all := deliveries.counts(); return all == 10 })
			eventually(t, 10*time.Second, "the table empty", func() bool { return rowCount(t, db, store) == 0 })
			deliveries.mu.Lock()
			defer deliveries.mu.Unlock()
			runs.mu.Lock()
			defer runs.mu.Unlock()
			for id, n := range deliveries.seen {
				if n != 2 {
					t.Errorf("%s delivered %d times, want 2 (published, not marked, republished)", id, n)
				}
				if runs.seen[id] != 1 {
					t.Errorf("the handler ran %d times for %s, want once", runs.seen[id], id)
				}
			}
		})
	}
}

func TestPoisonRowRetiresAfterMaxAttemptsAndDoesNotHoldBackTheRowsBehindIt(t *testing.T) {
	db := database(t)
	for name, url := range brokers(t) {
		t.Run(name, func(t *testing.T) {
			metrics := acemqtest.NewMetrics()
			store, _, conn, q := setup(t, db, url, acemq.WithObserver(metrics))
			c := collectOrders(t, conn, q)
			inTx(t, db, true, func(tx *sql.Tx) {
				poison := acemq.NewPublisher[order](Within(conn, store, tx), "", "no-such-queue-"+acemq.NewUUID(), acemq.Mandatory[order]())
				if err := poison.Send(t.Context(), order{ID: "poison"}); err != nil {
					t.Fatal(err)
				}
			})
			write(t, db, conn, store, q, 0, 1)
			r := startRelay(t, conn, store, MaxAttempts(3), PollInterval(10*time.Millisecond))
			if got := c.waitFor(t, 1, 10*time.Second); got[0].Payload.ID != orderID(0) {
				t.Fatalf("delivered %v", got[0].Payload)
			}
			eventually(t, 10*time.Second, "the poison row retires", func() bool { return r.Stats().Retired == 1 })
			var attempts int
			var lastError string
			var retired bool
			err := db.QueryRow(`SELECT attempts, last_error, retired_at IS NOT NULL FROM `+store.table.quoted).Scan(&attempts, &lastError, &retired)
			if err != nil {
				t.Fatalf("the retired row is gone: %v", err)
			}
			if attempts != 3 || !retired || !strings.Contains(lastError, "NO_ROUTE") {
				t.Errorf("retired row: attempts %d, retired %v, last error %q", attempts, retired, lastError)
			}
			if s := r.Stats(); s.Failed != 3 || s.Published != 1 {
				t.Errorf("stats %+v, want 3 failed, 1 published", s)
			}
			counts := metrics.Counts()
			var failed, retiredN, published int64
			for k, v := range counts {
				switch {
				case strings.HasPrefix(k, MetricTotal) && strings.Contains(k, "{outcome=failed}"):
					failed += v
				case strings.HasPrefix(k, MetricTotal) && strings.Contains(k, "{outcome=retired}"):
					retiredN += v
				case strings.HasPrefix(k, MetricTotal) && strings.Contains(k, "{outcome=published}"):
					published += v
				}
			}
			if failed != 3 || retiredN != 1 || published != 1 {
				t.Errorf("metrics failed %d retired %d published %d:\n%v", failed, retiredN, published, counts)
			}
			if lag := metrics.Durations(); len(lag) == 0 {
				t.Errorf("no %s observed", MetricLag)
			}
		})
	}
}

func TestOneRelayPublishesRowsInCommitOrderNotInsertOrder(t *testing.T) {
	db := database(t)
	store, _, conn, q := setup(t, db, "")
	first, err := db.BeginTx(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	send := func(tx *sql.Tx, id string) {
		if err := acemq.NewPublisher[order](Within(conn, store, tx), "", q).Send(t.Context(), order{ID: id}); err != nil {
			t.Fatal(err)
		}
	}
	send(first, "inserted-first-committed-second")
	inTx(t, db, true, func(tx *sql.Tx) { send(tx, "inserted-second-committed-first") })
	if err := first.Commit(); err != nil {
		t.Fatal(err)
	}
	c := collectOrders(t, conn, q)
	startRelay(t, conn, store, PollInterval(10*time.Millisecond))
	got := c.waitFor(t, 2, 10*time.Second)
	if got[0].Payload.ID != "inserted-second-committed-first" {
		t.Fatalf("delivered %s then %s, want commit order", got[0].Payload.ID, got[1].Payload.ID)
	}
}

func TestRetainKeepsPublishedRowsMarkedUntilTheyAreOld(t *testing.T) {
	db := database(t)
	store, _, conn, q := setup(t, db, "")
	c := collectOrders(t, conn, q)
	write(t, db, conn, store, q, 0, 3)
	startRelay(t, conn, store, Retain(300*time.Millisecond), PollInterval(20*time.Millisecond))
	c.waitFor(t, 3, 10*time.Second)
	var marked int
	eventually(t, 5*time.Second, "the rows marked published", func() bool {
		if err := db.QueryRow(`SELECT count(*) FROM ` + store.table.quoted + ` WHERE published_at IS NOT NULL`).Scan(&marked); err != nil {
			t.Fatal(err)
		}
		return marked == 3 || rowCount(t, db, store) == 0
	})
	if marked != 3 {
		t.Fatalf("published rows were deleted at once under Retain")
	}
	eventually(t, 10*time.Second, "the rows deleted after Retain", func() bool { return rowCount(t, db, store) == 0 })
	if c.count() != 3 {
		t.Errorf("%d deliveries, want 3", c.count())
	}
}

func TestRelayWakesWithinMillisecondsOfACommitLongBeforeItsPollInterval(t *testing.T) {
	db := database(t)
	for name, url := range brokers(t) {
		t.Run(name, func(t *testing.T) {
			store, _, conn, q := setup(t, db, url)
			arrived := make(chan time.Time, 16)
			consume(t, conn, q, func(context.Context, acemq.Message[order]) acemq.Ack { arrived <- time.Now(); return acemq.Accept() })
			startRelay(t, conn, store, PollInterval(10*time.Second))
			time.Sleep(200 * time.Millisecond) // let the relay's first sweep and LISTEN happen (not an assertion)
			var lat []time.Duration
			for i := range 5 {
				var committed time.Time
				inTx(t, db, true, func(tx *sql.Tx) {
					if err := acemq.NewPublisher[order](Within(conn, store, tx), "", q).Send(t.Context(), order{ID: orderID(i)}); err != nil {
						t.Fatal(err)
					}
					committed = time.Now()
				})
				select {
				case at := <-arrived:
					lat = append(lat, at.Sub(committed))
				case <-time.After(5 * time.Second):
					t.Fatalf("message %d did not arrive within 5 s of its commit (PollInterval is 10 s): no wake-up", i)
				}
			}
			t.Logf("commit to handler on %s: %v", name, lat)
		})
	}
}
