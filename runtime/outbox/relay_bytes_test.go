package outbox

import (
	"context"
	"database/sql"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

// padded is an order with a body of about size bytes.
type padded struct {
	ID  string `json:"id"`
	Pad string `json:"pad"`
}

func TestRelayBatchIsBoundedByBytes(t *testing.T) {
	db := database(t)
	store, _ := freshStore(t, db)
	conn := broker(t, "")
	q := queue(t, conn)
	c := newCollector[padded]()
	consume(t, conn, q, c.handle)
	sizes := []int{10 << 10, 10 << 10, 10 << 10, 10 << 10, 10 << 10, 100 << 10, 10 << 10, 10 << 10}
	for i, size := range sizes {
		inTx(t, db, true, func(tx *sql.Tx) {
			err := acemq.NewPublisher[padded](Within(conn, store, tx), "", q).Send(t.Context(), padded{ID: orderID(i), Pad: strings.Repeat("p", size)})
			if err != nil {
				t.Fatal(err)
			}
		})
	}
	var biggest int
	if err := db.QueryRow(`SELECT max(octet_length(body) + pg_column_size(headers)) FILTER (WHERE octet_length(body) < 50000) FROM ` + store.table.quoted).Scan(&biggest); err != nil {
		t.Fatal(err)
	}
	budget := 2*biggest + biggest/2 // two small rows fit, three do not
	var mu sync.Mutex
	var batches []int
	r := NewRelay(conn, store, BatchBytes(budget), Batch(100), PollInterval(time.Hour))
	r.beforeMark = func(_ context.Context, n int) error {
		mu.Lock()
		defer mu.Unlock()
		batches = append(batches, n)
		return nil
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()
	got := c.waitFor(t, len(sizes), 10*time.Second)
	cancel()
	<-done
	for i, m := range got {
		if m.Payload.ID != orderID(i) {
			t.Fatalf("delivery %d is %s: out of order", i, m.Payload.ID)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	want := []int{2, 2, 1, 1, 2} // the 100 KiB row goes alone, over the budget
	if len(batches) != len(want) {
		t.Fatalf("batches of %v rows, want %v (budget %d bytes)", batches, want, budget)
	}
	for i := range want {
		if batches[i] != want[i] {
			t.Fatalf("batches of %v rows, want %v (budget %d bytes)", batches, want, budget)
		}
	}
}

func TestBatchBytesMustBePositive(t *testing.T) {
	if err := NewRelay(broker(t, ""), NewStore(&sql.DB{}), BatchBytes(0)).Run(t.Context()); err == nil || !strings.Contains(err.Error(), "BatchBytes") {
		t.Fatalf("Run with BatchBytes(0) = %v", err)
	}
	if DefaultBatchBytes != 16<<20 {
		t.Errorf("DefaultBatchBytes = %d, want 16 MiB", DefaultBatchBytes)
	}
}
