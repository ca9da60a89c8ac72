package outbox

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemqtest"
	"github.com/acemq/acemq-gen/runtime/internal/testpoll"
	_ "github.com/acemq/acemq-gen/runtime/rabbitmq"
	_ "github.com/jackc/pgx/v5/stdlib"
)

// PostgresURLEnv names the database scripts/test.sh starts
// (scripts/postgres.sh); RequirePostgresEnv=1 (or ACEMQ_REQUIRE_BROKER=1)
// turns a missing one into a failure.
const (
	PostgresURLEnv     = "ACEMQ_TEST_POSTGRES_URL"
	RequirePostgresEnv = "ACEMQ_REQUIRE_POSTGRES"
)

// database opens the test database, skipping the test when none is
// configured (failing under ACEMQ_REQUIRE_POSTGRES=1 or ACEMQ_REQUIRE_BROKER=1)
// and failing when the configured one cannot be reached.
func database(t testing.TB) *sql.DB {
	t.Helper()
	db, err := sql.Open("pgx", databaseURL(t))
	if err != nil {
		t.Fatalf("cannot open %s: %v", PostgresURLEnv, err)
	}
	t.Cleanup(func() { db.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := db.PingContext(ctx); err != nil {
		t.Fatalf("cannot reach the database at %s (start one with scripts/postgres.sh): %v", PostgresURLEnv, err)
	}
	return db
}

// databaseURL is the test database's URL, skipping the test when none is
// configured (failing under ACEMQ_REQUIRE_POSTGRES=1 or ACEMQ_REQUIRE_BROKER=1).
func databaseURL(t testing.TB) string {
	t.Helper()
	url := os.Getenv(PostgresURLEnv)
	if url == "" {
		msg := PostgresURLEnv + " not set; start PostgreSQL with `export " + PostgresURLEnv + "=$(scripts/postgres.sh start | tail -n1)`"
		if os.Getenv(RequirePostgresEnv) == "1" || os.Getenv(acemqtest.RequireBrokerEnv) == "1" {
			t.Fatal(msg + " (" + RequirePostgresEnv + "=1 or " + acemqtest.RequireBrokerEnv + "=1 requires it)")
		}
		t.Skip(msg)
	}
	return url
}

// freshStore is an outbox (and inbox) in tables of the test's own, migrated,
// dropped at the end.
func freshStore(t testing.TB, db *sql.DB) (*Store, *Inbox) {
	t.Helper()
	name := "ob_" + strings.ReplaceAll(acemq.NewUUID()[:13], "-", "")
	store, inbox := NewStore(db, Table(name)), NewInbox(db, Table(name+"_inbox"))
	for _, m := range []interface{ Migrate(context.Context) error }{store, inbox} {
		if err := m.Migrate(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() {
		db.Exec(`DROP TABLE IF EXISTS ` + store.table.quoted + `, ` + inbox.table.quoted)
		db.Exec(`DROP SEQUENCE IF EXISTS ` + store.table.derived("commit_seq"))
		db.Exec(`DROP FUNCTION IF EXISTS ` + store.table.derived("commit_order") + `()`)
	})
	return store, inbox
}

// broker is a connection on which tests publish and consume: memory:// when
// url is "", else that broker.
func broker(t testing.TB, url string, opts ...acemq.ConnOption) *acemq.Conn {
	t.Helper()
	if url == "" {
		url = "memory://outbox-" + acemq.NewUUID()
	}
	conn, err := acemq.Connect(t.Context(), url, opts...)
	if err != nil {
		t.Fatalf("cannot connect to %s: %v", url, err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// brokers are the brokers a test runs on: memory:// always, RabbitMQ when
// ACEMQ_TEST_AMQP_URL is set (required under ACEMQ_REQUIRE_BROKER=1).
func brokers(t *testing.T) map[string]string {
	m := map[string]string{"memory": ""}
	if os.Getenv("ACEMQ_TEST_AMQP_URL") != "" || os.Getenv(acemqtest.RequireBrokerEnv) == "1" {
		m["rabbitmq"] = acemqtest.BrokerURL(t)
	}
	return m
}

// queue declares a fresh queue on conn.
func queue(t testing.TB, conn *acemq.Conn) string {
	t.Helper()
	q := "outbox-test-" + acemq.NewUUID()
	if err := conn.DeclareQueue(t.Context(), q); err != nil {
		t.Fatal(err)
	}
	return q
}

// setup is what most tests start from: an outbox (and inbox) of the test's
// own, a connection to the broker at url (see broker) and a fresh queue on it.
func setup(t testing.TB, db *sql.DB, url string, opts ...acemq.ConnOption) (*Store, *Inbox, *acemq.Conn, string) {
	t.Helper()
	store, inbox := freshStore(t, db)
	conn := broker(t, url, opts...)
	return store, inbox, conn, queue(t, conn)
}

// startRelay runs a relay until the test ends.
func startRelay(t testing.TB, conn *acemq.Conn, store *Store, opts ...RelayOption) *Relay {
	t.Helper()
	r := NewRelay(conn, store, opts...)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run = %v, want nil once its context ended", err)
		}
	})
	return r
}

// inTx runs f in a transaction and commits it (or rolls back when commit is false).
func inTx(t testing.TB, db *sql.DB, commit bool, f func(tx *sql.Tx)) {
	t.Helper()
	tx, err := db.BeginTx(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	f(tx)
	if !commit {
		if err := tx.Rollback(); err != nil {
			t.Fatal(err)
		}
		return
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

// collector records every delivery a consumer handled.
type collector[T any] struct {
	mu   sync.Mutex
	got  []acemq.Message[T]
	more chan struct{}
}

func newCollector[T any]() *collector[T] { return &collector[T]{more: make(chan struct{}, 1)} }

func (c *collector[T]) handle(_ context.Context, m acemq.Message[T]) acemq.Ack {
	c.mu.Lock()
	c.got = append(c.got, m)
	c.mu.Unlock()
	select {
	case c.more <- struct{}{}:
	default:
	}
	return acemq.Accept()
}

// waitFor waits until n messages arrived, failing after d.
func (c *collector[T]) waitFor(t testing.TB, n int, d time.Duration) []acemq.Message[T] {
	t.Helper()
	deadline := time.After(d)
	for {
		c.mu.Lock()
		got := append([]acemq.Message[T](nil), c.got...)
		c.mu.Unlock()
		if len(got) >= n {
			return got
		}
		select {
		case <-c.more:
		case <-deadline:
			t.Fatalf("%d of %d messages arrived in %s", len(got), n, d)
		}
	}
}

func (c *collector[T]) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.got)
}

// collectOrders consumes q on conn into a new collector of orders.
func collectOrders(t testing.TB, conn *acemq.Conn, q string) *collector[order] {
	t.Helper()
	c := newCollector[order]()
	consume(t, conn, q, c.handle)
	return c
}

// consume starts a consumer of q into a new collector.
func consume[T any](t testing.TB, conn *acemq.Conn, q string, h acemq.Handler[T]) {
	t.Helper()
	k, err := acemq.Consume(t.Context(), conn, q, h)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { k.Close() })
}

// pending counts the rows of store not yet published nor retired.
func pending(t testing.TB, db *sql.DB, store *Store) int {
	t.Helper()
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM ` + store.table.quoted + ` WHERE published_at IS NULL AND retired_at IS NULL`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// eventually polls cond every 10 ms until it holds, failing after d.
func eventually(t testing.TB, d time.Duration, what string, cond func() bool) {
	t.Helper()
	testpoll.Until(t, d, 10*time.Millisecond, what, cond)
}

type order struct {
	ID    string `json:"id"`
	Total int    `json:"total"`
}

func orderID(i int) string { return fmt.Sprintf("o-%04d", i) }
