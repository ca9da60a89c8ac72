package rabbitmq

import (
	"strings"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

func TestChannelStallTimeoutIsValidatedAndDefaultsToFiveSeconds(t *testing.T) {
	if c := defaultConfig(); c.stallTimeout != DefaultChannelStallTimeout || DefaultChannelStallTimeout != 5*time.Second {
		t.Fatalf("default %v, want 5s", c.stallTimeout)
	}
	for _, d := range []time.Duration{0, -time.Second} {
		cfg := defaultConfig()
		if err := applyForDial(ChannelStallTimeout(d), &cfg); err != nil {
			t.Fatal(err)
		}
		if err := cfg.validate(); err == nil || !strings.Contains(err.Error(), "rabbitmq.ChannelStallTimeout") {
			t.Errorf("ChannelStallTimeout(%v) validated (%v), want an error naming the option", d, err)
		}
	}
}

// TestAChannelIsTakenForStalledAfterChannelStallTimeoutOrTwoNacksInARow: the
// decision, without a broker.
func TestAChannelIsTakenForStalledAfterChannelStallTimeoutOrTwoNacksInARow(t *testing.T) {
	on := defaultConfig()
	on.stallTimeout = time.Second
	off := on
	off.recovery = recoveryOff
	for _, c := range []struct {
		name    string
		cfg     config
		waited  time.Duration
		nacks   int
		blocked bool
		want    bool
	}{
		{"confirmed in time", on, 999 * time.Millisecond, 0, false, false},
		{"no confirm within the bound", on, time.Second, 0, false, true},
		{"one nack", on, 0, 1, false, false},
		{"two nacks in a row", on, 0, 2, false, true},
		{"blocked by an alarm", on, time.Minute, 0, true, false},
		{"blocked, nacked twice", on, 0, 2, true, false},
		{"WithoutRecovery", off, time.Minute, 3, false, false},
	} {
		if got := c.cfg.stalled(c.waited, c.nacks, c.blocked); got != c.want {
			t.Errorf("%s: stalled(%v, %d, %v) = %v, want %v", c.name, c.waited, c.nacks, c.blocked, got, c.want)
		}
	}
}

func TestNacksInARowAreCountedPerChannel(t *testing.T) {
	var r resender
	a, b := &pubChannel{}, &pubChannel{}
	for i, c := range []struct {
		p    *pubChannel
		want int
	}{{a, 1}, {a, 2}, {b, 1}, {a, 1}, {a, 2}, {a, 3}} {
		if got := r.nackedInARow(c.p); got != c.want {
			t.Fatalf("nack %d: %d in a row, want %d", i, got, c.want)
		}
	}
}

// stalledTransport dials the test broker through a stallProxy.
func stalledTransport(t *testing.T, opts ...acemq.ConnOption) (*Transport, *stallProxy, *events, string) {
	t.Helper()
	px, url := newStallProxy(t, brokerURL(t))
	tr, ev := dialRecording(t, url, opts...)
	q := newCleaner(t).queue(unique("stall"))
	if err := tr.DeclareQueue(ctxT(t), q, driver.QueueSpec{}); err != nil {
		t.Fatal(err)
	}
	warmUp(t, tr, q)
	return tr, px, ev, q
}

// noLoss fails when the transport lost its connection: a stalled channel
// is reopened on the same connection.
func noLoss(t *testing.T, ev *events) {
	t.Helper()
	select {
	case e := <-ev.got:
		t.Fatalf("recovery event %+v: the connection was dropped, want only the channel reopened", e)
	default:
	}
}

// TestAChannelThatNeverConfirmsIsReopenedAndItsPublishesSentAgain: a
// channel that gets no confirm is closed after ChannelStallTimeout and the
// publishes waiting on it are sent again on a new channel of the same
// connection and confirmed there, long before ConfirmTimeout.
func TestAChannelThatNeverConfirmsIsReopenedAndItsPublishesSentAgain(t *testing.T) {
	tr, px, ev, q := stalledTransport(t, ChannelStallTimeout(300*time.Millisecond))
	px.arm(swallowAcks)
	start := time.Now()
	conf, err := tr.PublishAsync(ctxT(t), "", q, driver.Outbound{MessageID: "async", Body: []byte("a")})
	if err != nil {
		t.Fatal(err)
	}
	res, err := tr.Publish(ctxT(t), "", q, driver.Outbound{MessageID: "sync", Body: []byte("s"), Mandatory: true})
	if err != nil || !res.Confirmed || !res.Routed {
		t.Fatalf("Publish on a stalled channel = %+v, %v; want it sent again and confirmed", res, err)
	}
	if res, err := conf.Wait(ctxT(t)); err != nil || !res.Confirmed {
		t.Fatalf("PublishAsync on a stalled channel = %+v, %v; want it sent again and confirmed", res, err)
	}
	if took := time.Since(start); took > DefaultConfirmTimeout/2 {
		t.Fatalf("confirmed after %v: the channel was not reopened", took)
	}
	waitHolds(t, tr, q, 5) // warm-up, and each of the two twice: at-least-once
	noLoss(t, ev)
}

// TestAChannelThatNacksEveryPublishIsReopenedAfterTwoNacksInARow: the
// broker nacks the same publish twice in a row on one channel; the third
// attempt goes to a new channel and is confirmed, instead of the publish
// failing with ErrBrokerRefused after NackRetries resends on the same
// channel.
func TestAChannelThatNacksEveryPublishIsReopenedAfterTwoNacksInARow(t *testing.T) {
	tr, px, ev, q := stalledTransport(t)
	px.arm(nackAcks)
	res, err := tr.Publish(ctxT(t), "", q, driver.Outbound{MessageID: "nacked", Body: []byte("n")})
	if err != nil || !res.Confirmed {
		t.Fatalf("Publish on a channel that nacks everything = %+v, %v; want it confirmed on a new channel", res, err)
	}
	noLoss(t, ev)
}
