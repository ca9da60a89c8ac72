package patterns

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

func TestCancelledHalfNeverArrivesAcrossARestartOfTheSchedulingProcessAndTheSchedulers(t *testing.T) {
	onScheduleTransports(t, scheduleVhost, func(t *testing.T, url string) {
		const n = 2000 // 1,000 cancelled, as the done-when has it
		first, err := acemq.Connect(context.Background(), url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = first.Close() }) // also when the test fails half-way
		before := startScheduler(t, first)
		receiver := schedConn(t, url)
		q, got := destination(t, receiver, url)
		// due from 30 s on, room for scheduling and cancelling under -race on a busy machine
		firstDue := time.Now().Add(30 * time.Second)
		due := scheduleAndCancelHalf(t, acemq.NewPublisher[reminder](first, "", q), first, n, firstDue)
		// The process that scheduled them and its scheduler go away before
		// anything is due; a new one takes over.
		if time.Now().After(firstDue) {
			t.Fatalf("scheduling and cancelling took past the first due time: the restart would not come before them")
		}
		_ = before.Close()
		_ = first.Close()
		after := startScheduler(t, schedConn(t, url))
		waitFor(t, 60*time.Second, "the other half arrive", func() bool { return len(got.all()) >= n/2 })
		time.Sleep(2 * time.Second) // room for a cancelled one to show up
		checkArrivals(t, got.all(), due)
		// A scheduler checks for a cancellation at every hop, so the first one
		// dropped those that hopped before it went away; the rest the new one
		// learnt of from the broker alone (the cancellation markers).
		if dropped := before.Cancelled() + after.Cancelled(); dropped != n/2 || after.Cancelled() == 0 {
			t.Errorf("the schedulers dropped %d cancelled messages (%d before the restart, %d after), want %d, some after",
				dropped, before.Cancelled(), after.Cancelled(), n/2)
		}
	})
}

// scheduleAndCancelHalf schedules n reminders due from firstDue on, 2 ms
// apart, on 8 goroutines, cancels the even ones, and returns the due times
// of the others by id.
func scheduleAndCancelHalf(t *testing.T, pub *acemq.Publisher[reminder], conn *acemq.Conn, n int, firstDue time.Time) map[string]time.Time {
	t.Helper()
	var mu sync.Mutex
	due := map[string]time.Time{}
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			for i := w; i < n; i += 8 {
				s, err := pub.SendAt(context.Background(), firstDue.Add(time.Duration(i)*2*time.Millisecond), reminder{N: i})
				if err == nil && i%2 == 0 {
					err = acemq.CancelScheduled(context.Background(), conn, s.ID())
				}
				if err != nil {
					t.Error(err)
					return
				}
				if i%2 == 1 {
					mu.Lock()
					due[s.ID()] = s.DueAt()
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	return due
}

func TestCancelScheduledRefusesAnEmptyIDAndAcceptsOneAlreadyDelivered(t *testing.T) {
	conn := schedConn(t, "memory://schedule-"+acemq.NewUUID())
	if err := acemq.CancelScheduled(context.Background(), conn, ""); err == nil {
		t.Error("an empty id was accepted")
	}
	if err := acemq.CancelScheduled(context.Background(), conn, acemq.NewUUID()); err != nil {
		t.Errorf("cancelling an id no longer (or never) scheduled: %v", err)
	}
}
