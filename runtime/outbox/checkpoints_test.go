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
	"github.com/acemq/acemq-gen/runtime/patterns"
)

// freshCheckpoints is a checkpoints table of the test's own, migrated, and
// an effects table (one row per applied record), both dropped at the end.
func freshCheckpoints(t testing.TB, db *sql.DB, opts ...CheckpointOption) (*Checkpoints, string) {
	t.Helper()
	name := "cp_" + strings.ReplaceAll(acemq.NewUUID()[:13], "-", "")
	cp := NewCheckpoints(db, append([]CheckpointOption{Table(name)}, opts...)...)
	if err := cp.Migrate(t.Context()); err != nil {
		t.Fatal(err)
	}
	effects := `"` + name + `_effects"`
	if _, err := db.Exec(`CREATE TABLE ` + effects + ` (stream_offset bigint NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Exec(`DROP TABLE IF EXISTS "` + name + `", ` + effects) })
	return cp, effects
}

// record is the message a stream reader gets for the record at offset.
func record(offset int64) acemq.Message[order] {
	return acemq.Message[order]{Payload: order{ID: orderID(int(offset))}, Queue: "orders-log", Stream: acemq.StreamRecord{Offset: offset, Timestamp: time.Now()}}
}

// applying is a Checkpointed handler's h: it writes the record's offset
// into effects and answers with *answer.
func applying(effects string, answer *acemq.Ack) func(context.Context, *sql.Tx, acemq.Message[order]) acemq.Ack {
	return func(ctx context.Context, tx *sql.Tx, m acemq.Message[order]) acemq.Ack {
		if _, err := tx.ExecContext(ctx, `INSERT INTO `+effects+` VALUES ($1)`, m.Stream.Offset); err != nil {
			return acemq.Retry(err)
		}
		return *answer
	}
}

func countRows(t testing.TB, db *sql.DB, table string) int {
	t.Helper()
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM ` + table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func position(t testing.TB, cp *Checkpoints, reader string) acemq.StreamPosition {
	t.Helper()
	p, err := cp.Position(t.Context(), reader)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestCheckpointsPositionIsFirstForANewReaderAndTheRecordAfterTheCheckpointForAnExistingOne(t *testing.T) {
	db := database(t)
	cp, effects := freshCheckpoints(t, db)
	if p := position(t, cp, "projector"); p != acemq.StreamFirst() {
		t.Fatalf("a new reader's position is %+v, want StreamFirst", p)
	}
	accept := acemq.Accept()
	h := Checkpointed(cp, "projector", applying(effects, &accept))
	for _, off := range []int64{0, 1, 2} {
		if ack := h(t.Context(), record(off)); ack.String() != "accept" {
			t.Fatalf("offset %d: %v", off, ack)
		}
	}
	if p := position(t, cp, "projector"); p != acemq.StreamOffset(3) {
		t.Errorf("after offsets 0-2 the position is %+v, want StreamOffset(3)", p)
	}
	if p := position(t, cp, "auditor"); p != acemq.StreamFirst() {
		t.Errorf("another reader's position is %+v, want StreamFirst", p)
	}
}

func TestCheckpointedCommitsTheHandlersWritesAndTheOffsetTogether(t *testing.T) {
	db := database(t)
	cp, effects := freshCheckpoints(t, db)
	accept := acemq.Accept()
	h := Checkpointed(cp, "projector", applying(effects, &accept))
	if ack := h(t.Context(), record(7)); ack.String() != "accept" {
		t.Fatalf("ack %v, want accept", ack)
	}
	var off int64
	if err := db.QueryRow(`SELECT stream_offset FROM ` + effects).Scan(&off); err != nil || off != 7 {
		t.Fatalf("the handler's write: offset %d, %v; want 7", off, err)
	}
	if p := position(t, cp, "projector"); p != acemq.StreamOffset(8) {
		t.Errorf("position %+v, want StreamOffset(8)", p)
	}
}

func TestCheckpointedRollsBackTheWritesAndTheOffsetWhenTheHandlerFails(t *testing.T) {
	db := database(t)
	cp, effects := freshCheckpoints(t, db)
	accept := acemq.Accept()
	Checkpointed(cp, "projector", applying(effects, &accept))(t.Context(), record(0))
	for _, answer := range []acemq.Ack{acemq.Retry(errors.New("busy")), acemq.Reject(errors.New("bad")), acemq.Park(errors.New("odd"))} {
		h := Checkpointed(cp, "projector", applying(effects, &answer))
		if ack := h(t.Context(), record(1)); ack.String() != answer.String() {
			t.Errorf("h answered %v, the handler %v", answer, ack)
		}
		if n := countRows(t, db, effects); n != 1 {
			t.Errorf("after a %v: %d effects, want the 1 of offset 0", answer, n)
		}
		if p := position(t, cp, "projector"); p != acemq.StreamOffset(1) {
			t.Errorf("after a %v the position is %+v, want StreamOffset(1) (the failed record again)", answer, p)
		}
	}
}

func TestCheckpointedSkipsAReplayedRecord(t *testing.T) {
	db := database(t)
	cp, effects := freshCheckpoints(t, db)
	accept := acemq.Accept()
	runs := 0
	h := Checkpointed(cp, "projector", func(ctx context.Context, tx *sql.Tx, m acemq.Message[order]) acemq.Ack {
		runs++
		return applying(effects, &accept)(ctx, tx, m)
	})
	for _, off := range []int64{0, 1, 2, 1, 2, 0, 3} { // a restart replays 0-2 (a crash after commit)
		if ack := h(t.Context(), record(off)); ack.String() != "accept" {
			t.Fatalf("offset %d: %v, want accept", off, ack)
		}
	}
	if n := countRows(t, db, effects); n != 4 || runs != 4 {
		t.Errorf("%d effects and %d runs for offsets 0-3 with 0-2 replayed, want 4 and 4", n, runs)
	}
}

func TestCheckpointedReportsAGapAndAppliesTheRecordAfterIt(t *testing.T) {
	db := database(t)
	var mu sync.Mutex
	var gaps []patterns.StreamGap
	cp, effects := freshCheckpoints(t, db, OnGap(func(_ context.Context, reader string, g patterns.StreamGap) {
		if reader != "projector" {
			t.Errorf("a gap of reader %q, want projector", reader)
		}
		mu.Lock()
		gaps = append(gaps, g)
		mu.Unlock()
	}))
	answer := acemq.Accept()
	h := Checkpointed(cp, "projector", applying(effects, &answer))
	h(t.Context(), record(0))
	answer = acemq.Reject(errors.New("bad"))
	h(t.Context(), record(1))
	answer = acemq.Accept()
	h(t.Context(), record(2)) // the rejected 1 was seen: not a gap
	h(t.Context(), record(6)) // 3-5 fell out of retention
	restarted := Checkpointed(cp, "projector", applying(effects, &answer))
	restarted(t.Context(), record(9)) // after a restart at offset 7: 7-8 lost
	want := []patterns.StreamGap{{Stream: "orders-log", First: 3, Last: 5}, {Stream: "orders-log", First: 7, Last: 8}}
	mu.Lock()
	defer mu.Unlock()
	if len(gaps) != 2 || gaps[0] != want[0] || gaps[1] != want[1] {
		t.Errorf("gaps %+v, want %+v", gaps, want)
	}
	if p := position(t, cp, "projector"); p != acemq.StreamOffset(10) || countRows(t, db, effects) != 4 {
		t.Errorf("position %+v and %d effects after a gap, want StreamOffset(10) and 4 (0, 2, 6, 9)", p, countRows(t, db, effects))
	}
}

// positions is a CheckpointStore of a caller's own: its own table and
// columns, one position per reader name.
type positions struct {
	db       *sql.DB
	table    string
	migrated bool
}

func (p *positions) Migrate(ctx context.Context) error {
	p.migrated = true
	_, err := p.db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS `+p.table+` (name text PRIMARY KEY, pos bigint NOT NULL)`)
	return err
}

func (p *positions) Last(ctx context.Context, tx *sql.Tx, reader string) (int64, bool, error) {
	var pos int64
	err := tx.QueryRowContext(ctx, `SELECT pos FROM `+p.table+` WHERE name = $1 FOR UPDATE`, reader).Scan(&pos)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	return pos, err == nil, err
}

func (p *positions) Save(ctx context.Context, tx *sql.Tx, reader string, offset int64) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO `+p.table+` VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET pos = EXCLUDED.pos`, reader, offset)
	return err
}

func TestCheckpointsKeepPositionsInAStoreOfTheCallersOwn(t *testing.T) {
	db := database(t)
	own := &positions{db: db, table: `"pos_` + strings.ReplaceAll(acemq.NewUUID()[:13], "-", "") + `"`}
	t.Cleanup(func() { db.Exec(`DROP TABLE IF EXISTS ` + own.table) })
	cp, effects := freshCheckpoints(t, db, WithCheckpointStore(own))
	if !own.migrated || cp.Schema() != "" || cp.Name() != "" {
		t.Fatalf("Migrate ran the store's: %v; Schema %q, Name %q, want both empty", own.migrated, cp.Schema(), cp.Name())
	}
	accept := acemq.Accept()
	h := Checkpointed(cp, "projector", applying(effects, &accept))
	for _, off := range []int64{0, 1, 1} {
		h(t.Context(), record(off))
	}
	var pos int64
	if err := db.QueryRow(`SELECT pos FROM ` + own.table + ` WHERE name = 'projector'`).Scan(&pos); err != nil || pos != 1 {
		t.Fatalf("the store holds %d (%v), want 1", pos, err)
	}
	if p := position(t, cp, "projector"); p != acemq.StreamOffset(2) || countRows(t, db, effects) != 2 {
		t.Errorf("position %+v, %d effects; want StreamOffset(2) and 2", p, countRows(t, db, effects))
	}
}

func TestCheckpointedAppliesARecordOnceWhenInstancesOfAReaderGetItAtOnce(t *testing.T) {
	db := database(t)
	cp, effects := freshCheckpoints(t, db)
	accept := acemq.Accept()
	const instances = 3
	for off := range int64(10) {
		// each instance waits (at most 200 ms) for the others inside its
		// transaction: for a new reader nothing is locked yet, so all of
		// them apply the record and only the checkpoint's save can tell
		var inside sync.WaitGroup
		inside.Add(instances)
		h := Checkpointed(cp, "projector", func(ctx context.Context, tx *sql.Tx, m acemq.Message[order]) acemq.Ack {
			inside.Done()
			waitAtMost(&inside, 200*time.Millisecond)
			return applying(effects, &accept)(ctx, tx, m)
		})
		var wg sync.WaitGroup
		for range instances {
			wg.Go(func() {
				for ack := h(t.Context(), record(off)); ack.IsRetry(); ack = h(t.Context(), record(off)) {
				}
			})
		}
		wg.Wait()
	}
	if n := countRows(t, db, effects); n != 10 {
		t.Errorf("%d effects for 10 records each handled by %d instances at once, want 10", n, instances)
	}
}

// waitAtMost waits for wg, or d, whichever comes first.
func waitAtMost(wg *sync.WaitGroup, d time.Duration) {
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(d):
	}
}

func TestCheckpointsWithAnInvalidTableNameFailSayingSo(t *testing.T) {
	cp := NewCheckpoints(&sql.DB{}, Table("no good"))
	if err := cp.Migrate(t.Context()); !errors.Is(err, ErrInvalidTableName) {
		t.Errorf("Migrate = %v, want ErrInvalidTableName", err)
	}
	if _, err := cp.Position(t.Context(), "r"); !errors.Is(err, ErrInvalidTableName) {
		t.Errorf("Position = %v, want ErrInvalidTableName", err)
	}
	if ack := Checkpointed[order](cp, "r", nil)(t.Context(), record(0)); !ack.IsRetry() || !errors.Is(ack.Err(), ErrInvalidTableName) {
		t.Errorf("the handler answered %v (%v), want a retry with ErrInvalidTableName", ack, ack.Err())
	}
}

// failingSave is a store whose Save fails after its Last worked.
type failingSave struct{ *positions }

func (failingSave) Save(context.Context, *sql.Tx, string, int64) error {
	return errors.New("disk full")
}

func TestCheckpointedKeepsNoneOfTheHandlersWritesWhenTheOffsetCannotBeSaved(t *testing.T) {
	db := database(t)
	own := &positions{db: db, table: `"pos_` + strings.ReplaceAll(acemq.NewUUID()[:13], "-", "") + `"`}
	t.Cleanup(func() { db.Exec(`DROP TABLE IF EXISTS ` + own.table) })
	cp, effects := freshCheckpoints(t, db, WithCheckpointStore(failingSave{own}))
	accept := acemq.Accept()
	ack := Checkpointed(cp, "projector", applying(effects, &accept))(t.Context(), record(0))
	if !ack.IsRetry() || countRows(t, db, effects) != 0 {
		t.Errorf("a failed save: ack %v, %d effects kept; want a retry and none (the writes and the offset commit together)", ack, countRows(t, db, effects))
	}
}

func TestCheckpointedParksAMessageNotReadFromAStreamInsteadOfTakingItForOffset0(t *testing.T) {
	db, err := sql.Open("pgx", "postgres://nobody@127.0.0.1:1/none")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	runs := 0
	h := Checkpointed(NewCheckpoints(db), "projector", func(context.Context, *sql.Tx, acemq.Message[order]) acemq.Ack {
		runs++
		return acemq.Accept()
	})
	ack := h(t.Context(), acemq.Message[order]{Payload: order{ID: orderID(1)}, Queue: "orders"})
	if ack.String() != "park" || !strings.Contains(ack.Err().Error(), "not read from a stream") || runs != 0 {
		t.Errorf("a queue's message: %v (%v), %d runs; want it parked with the reason, the handler not run", ack, ack.Err(), runs)
	}
}
