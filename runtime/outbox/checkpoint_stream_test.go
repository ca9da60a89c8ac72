package outbox

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemqimpl"
	"github.com/acemq/acemq-gen/runtime/patterns"
)

// The checkpointed reader of the stream crash test runs in a child process
// (this test binary, with readerChildEnv set) so that it can be SIGKILLed.
const readerChildEnv = "ACEMQ_OUTBOX_READER_CHILD"

// crashReader is the checkpointed reader's name in the crash tests.
const crashReader = "crash-reader"

// orderStream is a generated stream of orders' contract.
func orderStream(name string) *acemqimpl.StreamSpec[order] {
	return &acemqimpl.StreamSpec[order]{Stream: name, Codec: acemqimpl.Static(acemq.JSONCodec{})}
}

// readInto starts crashReader on spec's stream at its checkpoint: each
// record becomes a row (its offset) of rows, in the handler's transaction.
func readInto(ctx context.Context, conn *acemq.Conn, spec *acemqimpl.StreamSpec[order], cp *Checkpoints, rows string) (*acemq.Consumer, error) {
	from, err := cp.Position(ctx, crashReader)
	if err != nil {
		return nil, err
	}
	h := Checkpointed(cp, crashReader, func(ctx context.Context, tx *sql.Tx, m acemq.Message[order]) acemq.Ack {
		if _, err := tx.ExecContext(ctx, `INSERT INTO `+rows+` VALUES ($1)`, m.Stream.Offset); err != nil {
			return acemq.Retry(err)
		}
		return acemq.Accept()
	})
	return spec.Read(ctx, conn, from, h, acemq.Prefetch(500))
}

// readerChild reads the stream named by the environment into its table
// until SIGTERM (or SIGKILL).
func readerChild() int {
	return childMain("outbox-crash-reader", func(ctx context.Context, db *sql.DB, conn *acemq.Conn) error {
		cp := NewCheckpoints(db, Table(os.Getenv("OUTBOX_CHILD_TABLE")))
		spec, rows := orderStream(os.Getenv("OUTBOX_CHILD_STREAM")), os.Getenv("OUTBOX_CHILD_ROWS")
		c, err := readInto(ctx, conn, spec, cp, rows)
		for ; err != nil && ctx.Err() == nil; c, err = readInto(ctx, conn, spec, cp, rows) {
			fmt.Fprintln(os.Stderr, "the reader cannot start yet (the broker restarting?):", err)
			time.Sleep(200 * time.Millisecond)
		}
		if err != nil {
			return nil // stopped before it started
		}
		defer c.Close()
		fmt.Println("reader ready")
		<-ctx.Done()
		return nil
	})
}

// appendOrders appends n orders to spec's stream, confirmed, 1,000 at a time.
func appendOrders(t testing.TB, conn *acemq.Conn, spec *acemqimpl.StreamSpec[order], n int) {
	t.Helper()
	pub := spec.Publisher(conn)
	batch := make([]order, 0, 1000)
	for done := 0; done < n; done += len(batch) {
		batch = batch[:0]
		for i := done; i < min(n, done+1000); i++ {
			batch = append(batch, order{ID: orderID(i), Total: i})
		}
		if _, err := pub.SendAll(t.Context(), batch); err != nil {
			t.Fatalf("appending records %d+: %v", done, err)
		}
	}
}

// freshStream declares a stream of the test's own on conn, deleted at the end.
func freshStream(t testing.TB, conn *acemq.Conn) *acemqimpl.StreamSpec[order] {
	t.Helper()
	spec := orderStream("outbox-stream-" + acemq.NewUUID())
	if err := spec.Apply(t.Context(), conn); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.DeleteQueue(context.Background(), spec.Stream) })
	return spec
}

// waitRows waits until rows holds at least n rows, failing after d.
func waitRows(t testing.TB, db *sql.DB, rows string, n int, d time.Duration) {
	t.Helper()
	eventually(t, d, fmt.Sprintf("%d rows in %s", n, rows), func() bool {
		var got int
		return db.QueryRow(`SELECT count(*) FROM `+rows).Scan(&got) == nil && got >= n
	})
}

// eachOffsetOnce checks that rows holds offsets 0 to n-1, each exactly once.
func eachOffsetOnce(t testing.TB, db *sql.DB, rows string, n int) {
	t.Helper()
	var count, distinct int
	var lo, hi int64
	q := `SELECT count(*), count(DISTINCT stream_offset), min(stream_offset), max(stream_offset) FROM ` + rows
	if err := db.QueryRow(q).Scan(&count, &distinct, &lo, &hi); err != nil {
		t.Fatal(err)
	}
	if count != n || distinct != n || lo != 0 || hi != int64(n-1) {
		t.Errorf("%d rows, %d distinct offsets from %d to %d; want %d rows, offsets 0 to %d each once", count, distinct, lo, hi, n, n-1)
	}
}

// crashPlan is where the crash test strikes: after how many rows it kills
// the reader (kill) or restarts the broker (!kill), in increasing order.
type crashStep struct {
	rows int
	kill bool
}

// crashPlan draws kills SIGKILLs and restarts broker restarts at random
// row counts between 2% and 98% of n.
func crashPlan(n, kills, restarts int) []crashStep {
	var plan []crashStep
	for i := range kills + restarts {
		plan = append(plan, crashStep{rows: n/50 + rand.IntN(n*96/100), kill: i < kills})
	}
	slices.SortFunc(plan, func(a, b crashStep) int { return a.rows - b.rows })
	return plan
}

func TestCrashACheckpointedReaderWritesEachOf100000RecordsOnceThrough10KillsAnd2BrokerRestarts(t *testing.T) {
	const total = 100_000
	db := database(t)
	dbURL, _, amqpURL, amqpPort := crashEnv(t)
	cp, rows := freshCheckpoints(t, db)
	conn := broker(t, amqpURL)
	spec := freshStream(t, conn)
	started := time.Now()
	appendOrders(t, conn, spec, total)
	appended := time.Since(started)
	start := func() *childRelay {
		return startProcess(t, "reader ready", readerChildEnv+"=1", "OUTBOX_CHILD_DB="+dbURL, "OUTBOX_CHILD_AMQP="+amqpURL,
			"OUTBOX_CHILD_TABLE="+cp.Name(), "OUTBOX_CHILD_STREAM="+spec.Stream, "OUTBOX_CHILD_ROWS="+rows)
	}
	reader := start()
	defer func() { reader.kill() }()
	for _, step := range crashPlan(total, 10, 2) {
		waitRows(t, db, rows, step.rows, 2*time.Minute)
		if step.kill {
			reader.kill()
			reader = start()
			continue
		}
		run(t, "../../scripts/broker.sh", "ctl", amqpPort, "--", "rabbitmqctl", "stop_app")
		run(t, "../../scripts/broker.sh", "ctl", amqpPort, "--", "rabbitmqctl", "start_app")
	}
	waitRows(t, db, rows, total, 2*time.Minute)
	time.Sleep(500 * time.Millisecond) // a duplicate would land now
	eachOffsetOnce(t, db, rows, total)
	t.Logf("appended %d records in %s; read them through 10 SIGKILLs and 2 broker restarts in %s", total, appended.Round(time.Millisecond),
		(time.Since(started) - appended).Round(time.Millisecond))
}

func TestCheckpointedReaderOnMemoryWritesEachRecordOnceAcrossRestarts(t *testing.T) {
	const total = 20_000
	db := database(t)
	cp, rows := freshCheckpoints(t, db)
	conn := broker(t, "")
	spec := freshStream(t, conn)
	appendOrders(t, conn, spec, total)
	for _, step := range crashPlan(total, 3, 0) {
		c, err := readInto(t.Context(), conn, spec, cp, rows)
		if err != nil {
			t.Fatal(err)
		}
		waitRows(t, db, rows, step.rows, time.Minute)
		c.Close() // a restart: the next reader starts at the checkpoint
	}
	c, err := readInto(t.Context(), conn, spec, cp, rows)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	waitRows(t, db, rows, total, time.Minute)
	time.Sleep(100 * time.Millisecond)
	eachOffsetOnce(t, db, rows, total)
}

func TestACheckpointedReaderBehindRetentionReportsTheGapFromItsCheckpoint(t *testing.T) {
	db := database(t)
	readerGaps, checkpointGaps := make(chan patterns.StreamGap, 4), make(chan patterns.StreamGap, 4)
	cp, rows := freshCheckpoints(t, db, OnGap(func(_ context.Context, _ string, g patterns.StreamGap) { checkpointGaps <- g }))
	conn := broker(t, "", patterns.OnStreamGap(func(g patterns.StreamGap) { readerGaps <- g }))
	spec := orderStream("outbox-stream-" + acemq.NewUUID())
	spec.MaxBytes = 2000 // a few dozen records
	if err := spec.Apply(t.Context(), conn); err != nil {
		t.Fatal(err)
	}
	appendOrders(t, conn, spec, 10)
	c, err := readInto(t.Context(), conn, spec, cp, rows)
	if err != nil {
		t.Fatal(err)
	}
	waitRows(t, db, rows, 10, 10*time.Second)
	c.Close() // checkpoint 9; while the reader is away, retention drops offsets 10 and on
	appendOrders(t, conn, spec, 1000)
	if c, err = readInto(t.Context(), conn, spec, cp, rows); err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for name, gaps := range map[string]chan patterns.StreamGap{"the reader (OnStreamGap)": readerGaps, "Checkpointed (OnGap)": checkpointGaps} {
		select {
		case g := <-gaps:
			if g.Stream != spec.Stream || g.First != 10 || g.Last < 10 || g.Last >= 1009 {
				t.Errorf("%s reported %+v, want offsets 10 (after the checkpoint) to the one before the first record kept", name, g)
			}
		case <-time.After(10 * time.Second):
			t.Errorf("%s reported no gap", name)
		}
	}
}
