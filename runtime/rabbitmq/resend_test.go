package rabbitmq

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

func TestConfirmTimeoutAndNackRetriesAreValidated(t *testing.T) {
	for _, o := range []acemq.ConnOption{ConfirmTimeout(0), NackRetries(-1)} {
		cfg := defaultConfig()
		if err := applyForDial(o, &cfg); err != nil {
			t.Fatal(err)
		}
		if err := cfg.validate(); err == nil || !strings.Contains(err.Error(), "rabbitmq.") {
			t.Errorf("config %+v validated (%v), want an error naming the option", cfg, err)
		}
	}
	if c := defaultConfig(); c.confirmTimeout != DefaultConfirmTimeout || c.nackRetries != DefaultNackRetries {
		t.Fatalf("defaults %v, %d", c.confirmTimeout, c.nackRetries)
	}
}

// mutedTransport dials the test broker through a muteProxy.
func mutedTransport(t *testing.T, opts ...acemq.ConnOption) (*Transport, *muteProxy, *events) {
	t.Helper()
	px, url := newMuteProxy(t, brokerURL(t))
	tr, ev := dialRecording(t, url, opts...)
	return tr, px, ev
}

// dialRecording dials url with the tests' recovery delay, recording the
// recovery events; the transport closes at cleanup.
func dialRecording(t *testing.T, url string, opts ...acemq.ConnOption) (*Transport, *events) {
	t.Helper()
	ev := newEvents()
	tr, err := Dial(ctxT(t), url, append([]acemq.ConnOption{testDelay, OnRecovery(ev.record)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tr.Close() })
	return tr, ev
}

// mutedQueue declares a queue named for name on tr and publishes one
// message to it, so the publishing channel is open and confirming, then
// mutes px: the broker's next confirms are swallowed. It returns the queue.
func mutedQueue(t *testing.T, tr *Transport, px *muteProxy, name string) string {
	t.Helper()
	q := newCleaner(t).queue(unique(name))
	if err := tr.DeclareQueue(ctxT(t), q, driver.QueueSpec{}); err != nil {
		t.Fatal(err)
	}
	warmUp(t, tr, q)
	px.mute()
	return q
}

// warmUp publishes one message to q, so the publishing channel is open
// (and confirming) before a test cuts it off.
func warmUp(t *testing.T, tr *Transport, q string) {
	t.Helper()
	if _, err := tr.Publish(ctxT(t), "", q, driver.Outbound{MessageID: "warm-up"}); err != nil {
		t.Fatal(err)
	}
}

// waitHolds waits until q holds n messages.
func waitHolds(t *testing.T, tr *Transport, q string, n int) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		got, err := tr.MessageCount(ctxT(t), q)
		if err == nil && got >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s holds %d messages (%v), want %d", q, got, err, n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestAPublishWhoseConfirmWasLostWithTheConnectionIsSentAgainAndConfirmed:
// the broker took the message but its confirm never came back before the
// connection dropped; Publish does not fail with ErrConfirmLost but sends
// the message again, same id, on the recovered connection and returns that
// confirm. The queue then holds it twice (at-least-once).
func TestAPublishWhoseConfirmWasLostWithTheConnectionIsSentAgainAndConfirmed(t *testing.T) {
	tr, px, ev := mutedTransport(t)
	check, q := openTransport(t), mutedQueue(t, tr, px, "resend")
	type answer struct {
		res acemq.PublishResult
		err error
	}
	got := make(chan answer, 1)
	go func() {
		res, err := tr.Publish(ctxT(t), "", q, driver.Outbound{MessageID: "once", Body: []byte("x"), Mandatory: true})
		got <- answer{res, err}
	}()
	waitHolds(t, check, q, 2) // warm-up and this one written, confirm swallowed
	tr.dropConnection()
	ev.waitFor(t, RecoveryRecovered)
	a := <-got
	if a.err != nil || !a.res.Confirmed || !a.res.Routed {
		t.Fatalf("Publish = %+v, %v; want it sent again and confirmed", a.res, a.err)
	}
	waitHolds(t, check, q, 3)
}

// TestAPipelinedPublishWhoseConfirmWasLostIsSentAgainAndConfirmed is the
// same for PublishAsync's Confirmation (SendAsync's Pending).
func TestAPipelinedPublishWhoseConfirmWasLostIsSentAgainAndConfirmed(t *testing.T) {
	tr, px, ev := mutedTransport(t)
	check, q := openTransport(t), mutedQueue(t, tr, px, "resend-async")
	var confs []driver.Confirmation
	for _, id := range []string{"a", "b", "c"} {
		conf, err := tr.PublishAsync(ctxT(t), "", q, driver.Outbound{MessageID: id, Body: []byte(id), Mandatory: true})
		if err != nil {
			t.Fatal(err)
		}
		confs = append(confs, conf)
	}
	waitHolds(t, check, q, 4)
	tr.dropConnection()
	ev.waitFor(t, RecoveryRecovered)
	for i, conf := range confs {
		if res, err := conf.Wait(ctxT(t)); err != nil || !res.Confirmed || !res.Routed {
			t.Fatalf("confirmation %d = %+v, %v; want it sent again and confirmed", i, res, err)
		}
	}
	waitHolds(t, check, q, 7)
}

// TestAPublishNeverConfirmedWithinConfirmTimeoutIsSentAgainOnANewConnection:
// a connection on which nothing is confirmed (RabbitMQ 3.10 just after a
// node's death) is dropped after ConfirmTimeout and the publish confirmed on
// the next one; the lost event says why.
func TestAPublishNeverConfirmedWithinConfirmTimeoutIsSentAgainOnANewConnection(t *testing.T) {
	tr, px, ev := mutedTransport(t, ConfirmTimeout(300*time.Millisecond))
	q := mutedQueue(t, tr, px, "wedged")
	res, err := tr.Publish(ctxT(t), "", q, driver.Outbound{MessageID: "w", Body: []byte("w")})
	if err != nil || !res.Confirmed {
		t.Fatalf("Publish on a wedged connection = %+v, %v; want it confirmed on the next", res, err)
	}
	if lost := ev.waitFor(t, RecoveryLost); lost.Err == nil || !strings.Contains(lost.Err.Error(), "ConfirmTimeout") {
		t.Fatalf("lost event %+v, want it to name ConfirmTimeout", lost)
	}
}

// TestAPublishWaitingForALostConfirmFailsOnlyWhenItsContextEnds: while the
// connection is down for good (the broker unreachable), a publish whose
// confirm was lost waits for recovery within its ctx and fails with ctx's
// error, not ErrConfirmLost.
func TestAPublishWaitingForALostConfirmFailsOnlyWhenItsContextEnds(t *testing.T) {
	tr, px, _ := mutedTransport(t)
	check, q := openTransport(t), mutedQueue(t, tr, px, "resend-ctx")
	tr.setURL("amqp://guest:guest@127.0.0.1:1/") // nothing answers there
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	got := make(chan error, 1)
	go func() {
		_, err := tr.Publish(ctx, "", q, driver.Outbound{MessageID: "late", Body: []byte("x")})
		got <- err
	}()
	waitHolds(t, check, q, 2)
	tr.dropConnection()
	select {
	case err := <-got:
		t.Fatalf("Publish returned %v before its ctx ended", err)
	case <-time.After(200 * time.Millisecond): // it waits; not a timed assertion of the result
	}
	cancel()
	if err := <-got; !errors.Is(err, context.Canceled) || errors.Is(err, ErrConfirmLost) {
		t.Fatalf("Publish = %v, want ctx's error", err)
	}
}
