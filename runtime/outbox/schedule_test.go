package outbox

import (
	"database/sql"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/patterns"
)

func TestAMessageScheduledWithinATransactionIsScheduledOnlyIfItCommits(t *testing.T) {
	db := database(t)
	store, _, conn, q := setup(t, db, "")
	sched, err := patterns.NewScheduler(t.Context(), conn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sched.Close() })
	got := newCollector[order]()
	consume(t, conn, q, got.handle)
	for id, commit := range map[string]bool{"rolled-back": false, "committed": true} {
		inTx(t, db, commit, func(tx *sql.Tx) {
			_, err := acemq.NewPublisher[order](Within(conn, store, tx), "", q).SendAfter(t.Context(), 1200*time.Millisecond, order{ID: id})
			if err != nil {
				t.Fatal(err)
			}
		})
	}
	startRelay(t, conn, store)
	msgs := got.waitFor(t, 1, 10*time.Second)
	time.Sleep(1500 * time.Millisecond) // room for the rolled-back one to show
	if got.count() != 1 || msgs[0].Payload.ID != "committed" {
		t.Errorf("%d arrived (%+v), want the committed one only", got.count(), msgs)
	}
}
