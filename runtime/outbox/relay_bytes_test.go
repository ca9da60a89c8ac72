package outbox

import (
	"context"
	"database/sql"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// padded is an order with a body of about size bytes.
type padded struct {
	ID  string `json:"id"`
	Pad string `json:"pad"`
}

func TestRelayBatchIsBoundedByBytes(t *testing.T) {
	db := database(t)
	store, _, conn, q := setup(t, db, "")
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

// peakHeap samples the live heap every millisecond until stop is called and
// returns the highest value seen.
func peakHeap() (stop func() uint64) {
	var peak atomic.Uint64
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapAlloc > peak.Load() {
				peak.Store(ms.HeapAlloc)
			}
			select {
			case <-done:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	return func() uint64 { close(done); <-finished; return peak.Load() }
}

// discardTransport confirms every publish and keeps nothing, so that the
// heap a relay test measures is the relay's own.
type discardTransport struct {
	driver.Transport
	published atomic.Int64
}

func (*discardTransport) Close() error { return nil }

func (d *discardTransport) Publish(_ context.Context, _, _ string, msg driver.Outbound) (acemq.PublishResult, error) {
	d.published.Add(1)
	return acemq.PublishResult{MessageID: msg.MessageID, Confirmed: true, Routed: true}, nil
}

func TestRelayHeapIsBoundedByBatchBytes(t *testing.T) {
	db := database(t)
	store, _ := freshStore(t, db)
	conn := broker(t, "")
	const rows, size = 16, 4 << 20 // 64 MiB of bodies
	for i := range rows {
		inTx(t, db, true, func(tx *sql.Tx) {
			if err := acemq.NewPublisher[padded](Within(conn, store, tx), "", "q").Send(t.Context(), padded{ID: orderID(i), Pad: strings.Repeat("p", size)}); err != nil {
				t.Fatal(err)
			}
		})
	}
	discard := &discardTransport{Transport: conn.Transport()}
	relayConn, err := acemq.NewConn(discard)
	if err != nil {
		t.Fatal(err)
	}
	defer debug.SetGCPercent(debug.SetGCPercent(10)) // HeapAlloc close to the live heap
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	stop := peakHeap()
	startRelay(t, relayConn, store, BatchBytes(8<<20), PollInterval(time.Hour))
	eventually(t, 60*time.Second, "every row published", func() bool { return discard.published.Load() == rows })
	peak := stop()
	grew := int64(peak) - int64(before.HeapAlloc)
	t.Logf("heap grew by %d MiB at most relaying %d MiB in batches of 8 MiB", grew>>20, rows*size>>20)
	if grew > 40<<20 {
		t.Errorf("heap grew by %d MiB relaying %d MiB with BatchBytes(8 MiB): the batch is not bounded by bytes", grew>>20, rows*size>>20)
	}
}
