package patterns

import (
	"context"
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
		before, err := NewScheduler(context.Background(), first)
		if err != nil {
			t.Fatal(err)
		}
		receiver := schedConn(t, url)
		q, got := destination(t, receiver, url)
		pub := acemq.NewPublisher[reminder](first, "", q)
		due := map[string]time.Time{}
		// due from 20 s on, room for scheduling and cancelling under -race on a busy machine
		firstDue := time.Now().Add(20 * time.Second)
		for i := range n {
			s, err := pub.SendAt(context.Background(), firstDue.Add(time.Duration(i)*2*time.Millisecond), reminder{N: i})
			if err != nil {
				t.Fatal(err)
			}
			if i%2 == 0 {
				if err := acemq.CancelScheduled(context.Background(), first, s.ID()); err != nil {
					t.Fatal(err)
				}
				continue
			}
			due[s.ID()] = s.DueAt()
		}
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

func TestCancelScheduledRefusesAnEmptyIDAndAcceptsOneAlreadyDelivered(t *testing.T) {
	conn := schedConn(t, "memory://schedule-"+acemq.NewUUID())
	if err := acemq.CancelScheduled(context.Background(), conn, ""); err == nil {
		t.Error("an empty id was accepted")
	}
	if err := acemq.CancelScheduled(context.Background(), conn, acemq.NewUUID()); err != nil {
		t.Errorf("cancelling an id no longer (or never) scheduled: %v", err)
	}
}
