package rabbitmq

import (
	"context"
	"crypto/tls"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

func TestWithoutRecoveryGivesUpAndLaterCallsFailAtOnce(t *testing.T) {
	ev := newEvents()
	tr := openTransport(t, WithoutRecovery(), OnRecovery(ev.record))
	tr.dropConnection()
	ev.waitFor(t, RecoveryLost)
	if gave := ev.waitFor(t, RecoveryGaveUp); gave.Err == nil {
		t.Fatal("gave-up event without the reason the connection was lost")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err := tr.Publish(ctx, "", "q", driver.Outbound{MessageID: "late"})
	if err == nil || errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "WithoutRecovery") {
		t.Fatalf("Publish after giving up: %v, want an immediate error naming WithoutRecovery", err)
	}
	if err := tr.DeclareQueue(ctx, "q", driver.QueueSpec{}); err == nil || !strings.Contains(err.Error(), "recovery is off") {
		t.Fatalf("DeclareQueue after giving up: %v, want the recovery-off error", err)
	}
}

func TestWithoutConfirmsMandatoryHopsAreStillConfirmedOnAChannelOfTheirOwn(t *testing.T) {
	tr, c := openTransport(t, WithoutConfirms()), newCleaner(t)
	ctx, q := ctxT(t), c.declared(tr, "hop", driver.QueueSpec{})
	plain, err := tr.Publish(ctx, "", q, driver.Outbound{MessageID: "plain"})
	if err != nil || plain.Confirmed {
		t.Fatalf("plain publish without confirms = %+v, %v; want unconfirmed", plain, err)
	}
	hop, err := tr.Publish(ctx, "", q, driver.Outbound{MessageID: "hop", Mandatory: true})
	if err != nil || !hop.Confirmed || !hop.Routed {
		t.Fatalf("mandatory hop = %+v, %v; want confirmed and routed", hop, err)
	}
	lost, err := tr.Publish(ctx, "", unique("nobody"), driver.Outbound{MessageID: "lost", Mandatory: true})
	if err != nil || lost.Routed || !strings.Contains(lost.ReturnReason, "NO_ROUTE") {
		t.Fatalf("mandatory hop into nowhere = %+v, %v; want unrouted with NO_ROUTE", lost, err)
	}
	tr.pubMu.Lock()
	main, side := tr.pubs[mainLane], tr.pubs[hopLane]
	tr.pubMu.Unlock()
	if main == nil || side == nil || main.ch == side.ch {
		t.Fatal("the hops did not get a channel of their own")
	}
}

func TestASpentContextDeclaresNothing(t *testing.T) {
	tr, c := openTransport(t), newCleaner(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	q := c.queue(unique("spent"))
	if err := tr.DeclareQueue(ctx, q, driver.QueueSpec{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("declare with a spent ctx: %v, want context.Canceled", err)
	}
	if _, err := tr.MessageCount(ctxT(t), q); err == nil || !strings.Contains(err.Error(), "NOT_FOUND") {
		t.Fatalf("the queue exists after a declare with a spent ctx (MessageCount: %v)", err)
	}
}

func TestDialAppliesTheRecoveryAndTLSOptions(t *testing.T) {
	cfg := defaultConfig()
	tc := &tls.Config{ServerName: "broker"}
	for _, o := range []acemq.ConnOption{WithoutRecovery(), WithTLS(tc), TrustCA("ca.pem")} {
		if err := applyForDial(o, &cfg); err != nil {
			t.Fatal(err)
		}
	}
	if cfg.recovery != recoveryOff || cfg.tls != tc || cfg.caFile != "ca.pem" {
		t.Fatalf("config after options = %+v", cfg)
	}
	if defaultConfig().recovery != recoveryOn {
		t.Fatal("recovery is not on by default")
	}
}
