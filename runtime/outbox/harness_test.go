package outbox

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemqtest"
)

// TestRelayPublishesACommittedRowInTheHarnessInVirtualTime runs the real
// relay on the real PostgreSQL inside acemqtest.Run's bubble: polling only
// (PollOnly; no LISTEN connection left waiting on the network), every
// PollInterval of virtual time. A row committed is delivered one poll later;
// a rolled-back one never.
func TestRelayPublishesACommittedRowInTheHarnessInVirtualTime(t *testing.T) {
	url := databaseURL(t)
	tables, _ := freshStore(t, database(t)) // made and dropped outside the bubble
	acemqtest.Run(t, func(t *testing.T, h *acemqtest.Harness) {
		db, err := sql.Open("pgx", url) // opened in the bubble: its pool's goroutines end with Close
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		store := NewStore(db, Table(tables.table.raw))
		conn := h.Conn()
		q := queue(t, conn)
		got := newCollector[order]()
		consume(t, conn, q, got.handle)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		relay := NewRelay(conn, store, PollInterval(time.Minute), PollOnly())
		go func() { done <- relay.Run(ctx) }()
		h.Settle() // the first sweep finds nothing
		inTx(t, db, true, func(tx *sql.Tx) { send(t, conn, store, tx, q, "committed") })
		inTx(t, db, false, func(tx *sql.Tx) { send(t, conn, store, tx, q, "rolled back") })
		if got.count() != 0 {
			t.Fatalf("delivered before the relay's next poll")
		}
		h.Advance(time.Minute)
		if list := got.waitFor(t, 1, time.Second); len(list) != 1 || list[0].Payload.ID != "committed" {
			t.Fatalf("after one poll: %+v, want only the committed row", list)
		}
		cancel()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		h.ExpectDelivered(q, time.Minute)
	})
}

// send publishes an order with id to q within tx.
func send(t *testing.T, conn *acemq.Conn, store *Store, tx *sql.Tx, q, id string) {
	t.Helper()
	if err := acemq.NewPublisher[order](Within(conn, store, tx), "", q).Send(t.Context(), order{ID: id}); err != nil {
		t.Fatal(err)
	}
}
