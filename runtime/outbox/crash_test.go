package outbox

import (
	"bufio"
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemqtest"
	"github.com/acemq/acemq-gen/runtime/internal/faultlock"
	"github.com/acemq/acemq-gen/runtime/rabbitmq"
)

// The crash test's relay runs in a child process (this test binary, with
// relayChildEnv set) so that it can be killed with SIGKILL.
const relayChildEnv = "ACEMQ_OUTBOX_RELAY_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(relayChildEnv) == "1" {
		os.Exit(relayChild())
	}
	if os.Getenv(readerChildEnv) == "1" {
		os.Exit(readerChild())
	}
	os.Exit(m.Run())
}

// relayChild relays the table named by the environment until SIGTERM (or
// SIGKILL), reconnecting to the broker until it is up.
func relayChild() int {
	return childMain("outbox-crash-relay", func(ctx context.Context, db *sql.DB, conn *acemq.Conn) error {
		fmt.Println("relay ready")
		r := NewRelay(conn, NewStore(db, Table(os.Getenv("OUTBOX_CHILD_TABLE"))), Batch(50), PollInterval(200*time.Millisecond), MaxBackoff(500*time.Millisecond))
		return r.Run(ctx)
	})
}

// childMain is a child process's life: it opens the database and connects
// to the broker named by the environment (trying until the broker is up),
// then runs work until SIGTERM (or SIGKILL). A failure exits 2.
func childMain(name string, work func(ctx context.Context, db *sql.DB, conn *acemq.Conn) error) int {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	db, err := sql.Open("pgx", os.Getenv("OUTBOX_CHILD_DB"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer db.Close()
	var conn *acemq.Conn
	for conn == nil && ctx.Err() == nil {
		if conn, err = acemq.Connect(ctx, os.Getenv("OUTBOX_CHILD_AMQP"), rabbitmq.Name(name)); err != nil {
			time.Sleep(100 * time.Millisecond)
		}
	}
	if conn == nil {
		return 0
	}
	defer conn.Close()
	if err := work(ctx, db, conn); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	return 0
}

// childRelay is a running child process: a relay or a stream reader.
type childRelay struct {
	cmd *exec.Cmd
}

func startChild(t *testing.T, dbURL, amqpURL, table string) *childRelay {
	t.Helper()
	return startProcess(t, "relay ready", relayChildEnv+"=1", "OUTBOX_CHILD_DB="+dbURL, "OUTBOX_CHILD_AMQP="+amqpURL, "OUTBOX_CHILD_TABLE="+table)
}

// startProcess starts this test binary with env added and waits for it to
// print the line readyLine.
func startProcess(t *testing.T, readyLine string, env ...string) *childRelay {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ready := make(chan struct{})
	go func() {
		s := bufio.NewScanner(out)
		for s.Scan() {
			if s.Text() == readyLine {
				close(ready)
			}
		}
	}()
	select {
	case <-ready:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatal("the child process did not start: no " + readyLine)
	}
	return &childRelay{cmd: cmd}
}

func (c *childRelay) kill() {
	c.cmd.Process.Signal(syscall.SIGKILL)
	c.cmd.Wait()
}

// crashEnv is what the crash test needs: the database, its port under
// scripts/postgres.sh, and the fault broker with its port.
func crashEnv(t *testing.T) (dbURL, pgPort, amqpURL, amqpPort string) {
	v := acemqtest.BrokerEnv(t, "the crash test restarts a node of its own: `scripts/broker.sh start 5699` then export "+
		"ACEMQ_TEST_FAULT_AMQP_URL=$(scripts/broker.sh url 5699) ACEMQ_TEST_FAULT_PORT=5699 (scripts/test.sh does this)",
		"ACEMQ_TEST_FAULT_AMQP_URL", "ACEMQ_TEST_FAULT_PORT")
	if v == nil {
		return
	}
	faultlock.Hold(t, v[1]) // it restarts the node: other packages' fault tests wait
	dbURL = os.Getenv(PostgresURLEnv)
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatalf("%s: %v", PostgresURLEnv, err)
	}
	pgPort = u.Port()
	if err := exec.Command("../../scripts/postgres.sh", "status", pgPort).Run(); err != nil {
		t.Fatalf("the crash test restarts PostgreSQL with scripts/postgres.sh, which does not run the one on port %s", pgPort)
	}
	return dbURL, pgPort, v[0], v[1]
}

func run(t *testing.T, name string, args ...string) {
	out, err := exec.Command(name, args...).CombinedOutput()
	if err != nil {
		t.Errorf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
}

func TestCrashEveryCommittedRecordIsHandledExactlyOnceAndNoRolledBackOneIsSeen(t *testing.T) {
	db := database(t)
	dbURL, pgPort, amqpURL, amqpPort := crashEnv(t)
	store, inbox := freshStore(t, db)
	records, handled := store.table.derived("records"), store.table.derived("handled")
	for _, ddl := range []string{`CREATE TABLE ` + records + ` (id text PRIMARY KEY)`, `CREATE TABLE ` + handled + ` (id text NOT NULL)`} {
		if _, err := db.Exec(ddl); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { db.Exec(`DROP TABLE IF EXISTS ` + records + `, ` + handled) })
	db.SetMaxOpenConns(20)

	conn := broker(t, amqpURL, acemq.WithRetry(acemq.FixedRetry(500, 100*time.Millisecond)))
	q := queue(t, conn)
	var seenMu sync.Mutex
	seen := map[string]int{}
	h := Once(inbox, func(ctx context.Context, tx *sql.Tx, m acemq.Message[order]) acemq.Ack {
		if _, err := tx.ExecContext(ctx, `INSERT INTO `+handled+` VALUES ($1)`, m.Payload.ID); err != nil {
			return acemq.Retry(err)
		}
		return acemq.Accept()
	})
	consume(t, conn, q, func(ctx context.Context, m acemq.Message[order]) acemq.Ack {
		seenMu.Lock()
		seen[m.Payload.ID]++
		seenMu.Unlock()
		return h(ctx, m)
	})

	relay := startChild(t, dbURL, amqpURL, store.Name())
	defer func() { relay.kill() }()

	const total = 300
	var written atomic.Int64
	var rolledBack []string
	writerDone := make(chan struct{})
	go func() {
		defer close(writerDone)
		for i := range total {
			id, commit := fmt.Sprintf("r-%04d", i), i%5 != 0
			for writeRecord(t.Context(), db, conn, store, q, records, id, commit) != nil {
				time.Sleep(50 * time.Millisecond)
			}
			if !commit {
				rolledBack = append(rolledBack, id)
			}
			written.Add(1)
			time.Sleep(8 * time.Millisecond)
		}
	}()
	at := func(n int64) {
		for written.Load() < n {
			time.Sleep(5 * time.Millisecond)
		}
	}
	at(50)
	relay.kill()
	relay = startChild(t, dbURL, amqpURL, store.Name())
	at(100)
	run(t, "../../scripts/broker.sh", "ctl", amqpPort, "--", "rabbitmqctl", "stop_app")
	run(t, "../../scripts/broker.sh", "ctl", amqpPort, "--", "rabbitmqctl", "start_app")
	at(150)
	relay.kill()
	relay = startChild(t, dbURL, amqpURL, store.Name())
	at(200)
	run(t, "../../scripts/postgres.sh", "restart", pgPort)
	<-writerDone

	var committed int
	deadline := time.Now().Add(45 * time.Second)
	for {
		var left, done int
		db.QueryRow(`SELECT count(*) FROM ` + records).Scan(&committed)
		db.QueryRow(`SELECT count(*) FROM ` + store.table.quoted).Scan(&left)
		db.QueryRow(`SELECT count(DISTINCT id) FROM ` + handled).Scan(&done)
		if left == 0 && done == committed && committed > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 45 s: %d committed, %d handled, %d rows left in the outbox", committed, done, left)
		}
		time.Sleep(50 * time.Millisecond)
	}
	var twice int
	if err := db.QueryRow(`SELECT count(*) FROM (SELECT id FROM ` + handled + ` GROUP BY id HAVING count(*) > 1) d`).Scan(&twice); err != nil {
		t.Fatal(err)
	}
	var strays int
	if err := db.QueryRow(`SELECT count(*) FROM ` + handled + ` h LEFT JOIN ` + records + ` r USING (id) WHERE r.id IS NULL`).Scan(&strays); err != nil {
		t.Fatal(err)
	}
	seenMu.Lock()
	defer seenMu.Unlock()
	deliveries := 0
	for _, n := range seen {
		deliveries += n
	}
	for _, id := range rolledBack {
		if seen[id] > 0 {
			t.Errorf("rolled-back record %s was delivered %d times", id, seen[id])
		}
	}
	if twice != 0 || strays != 0 {
		t.Errorf("%d records handled more than once, %d handled records never committed", twice, strays)
	}
	t.Logf("crash test: %d records written, %d committed, %d rolled back (never delivered), %d deliveries (%d duplicates absorbed by the inbox), "+
		"%d handled exactly once; relay SIGKILLed twice, broker and PostgreSQL restarted once each",
		total, committed, len(rolledBack), deliveries, deliveries-len(seen), committed)
}

// writeRecord writes one business row and its message in one transaction,
// committing or rolling back. An error (the database restarting) means it
// is tried again; a commit whose outcome was unknown but happened is found
// by the next try, and the records table is the truth the test checks.
func writeRecord(ctx context.Context, db *sql.DB, conn *acemq.Conn, store *Store, q, records, id string, commit bool) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `INSERT INTO `+records+` VALUES ($1) ON CONFLICT DO NOTHING`, id)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return err // committed by a try whose commit looked failed
	}
	// the record's id is the message's: a message written twice is one message
	if err := acemq.NewPublisher[order](Within(conn, store, tx), "", q).Send(ctx, order{ID: id}, acemq.MessageID(id)); err != nil {
		return err
	}
	if !commit {
		return tx.Rollback()
	}
	return tx.Commit()
}
