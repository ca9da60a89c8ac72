package outbox

import (
	"context"
	"database/sql"
	"errors"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

func TestOnceCommitsOnAcceptRollsBackOtherwiseAndSkipsARecordedID(t *testing.T) {
	db := database(t)
	_, inbox := freshStore(t, db)
	if _, err := db.Exec(`CREATE TEMP TABLE IF NOT EXISTS effects (id text)`); err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1) // the temp table lives on one connection
	defer db.SetMaxOpenConns(0)
	runs := 0
	answer := acemq.Retry(errors.New("not yet"))
	h := Once(inbox, func(ctx context.Context, tx *sql.Tx, m acemq.Message[order]) acemq.Ack {
		runs++
		if _, err := tx.ExecContext(ctx, `INSERT INTO effects VALUES ($1)`, m.Payload.ID); err != nil {
			t.Fatal(err)
		}
		return answer
	})
	m := acemq.Message[order]{Payload: order{ID: "e-1"}, Queue: "orders", Envelope: acemq.Envelope{ID: "id-1"}}
	effects := func() int {
		var n int
		if err := db.QueryRow(`SELECT count(*) FROM effects`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if ack := h(t.Context(), m); !ack.IsRetry() || effects() != 0 {
		t.Fatalf("a Retry: ack %v, %d effects kept, want retry and none", ack, effects())
	}
	answer = acemq.Accept()
	if ack := h(t.Context(), m); ack.String() != "accept" || effects() != 1 || runs != 2 {
		t.Fatalf("an Accept: ack %v, %d effects, %d runs", ack, effects(), runs)
	}
	if ack := h(t.Context(), m); ack.String() != "accept" || runs != 2 || effects() != 1 {
		t.Fatalf("a recorded id: ack %v, %d runs, %d effects: the handler ran again", ack, runs, effects())
	}
	other := m
	other.Queue = "audit"
	if h(t.Context(), other); runs != 3 {
		t.Errorf("the same id on another queue did not run the handler")
	}
}
