package rabbitmq

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// clusterDelay is the default first redial delay (1 s), capped low.
var clusterDelay = RecoveryDelay(time.Second, 5*time.Second)

// TestAPublisherAndConsumerOnAKilledNodeCarryOnOnASurvivingNode: with a
// multi-host URL, SIGKILLing the node the transport is connected to moves it
// to a surviving node: publishes are confirmed there, the consumer resumes by
// itself, and the deliveries it held unsettled come back redelivered.
func TestAPublisherAndConsumerOnAKilledNodeCarryOnOnASurvivingNode(t *testing.T) {
	cl := clusterNodes(t)
	if cl == nil {
		return
	}
	ctx, ev, tr, victim, clean := cl.dial(t)
	q := clean.queue(unique("cluster-failover"))
	if err := tr.DeclareQueue(ctx, q, driver.QueueSpec{Durable: true, Args: map[string]any{"x-queue-type": "quorum"}}); err != nil {
		t.Fatal(err)
	}
	box, _ := consumeInbox(ctx, t, tr, q, 50)
	publishConfirmed(ctx, t, tr, q, "before", 5)
	for range 5 {
		if d := box.next(t); d.Redelivered {
			t.Fatalf("%s redelivered before any node died", d.MessageID)
		}
	}

	cl.kill(t, victim)
	ev.waitFor(t, RecoveryLost)
	publishConfirmed(ctx, t, tr, q, "after", 5)
	if hosts, now := tr.Hosts(); portOf(hosts[now]) == victim {
		t.Fatalf("the transport is still on the killed node %s", victim)
	}

	got := collect(ctx, t, box, 10)
	for i := 1; i <= 5; i++ {
		if d, ok := got[fmt.Sprintf("before-%d", i)]; !ok || !d.Redelivered {
			t.Fatalf("before-%d: delivered %v, redelivered %v; want it back, marked redelivered", i, ok, d.Redelivered)
		}
		if _, ok := got[fmt.Sprintf("after-%d", i)]; !ok {
			t.Fatalf("after-%d, published after the kill, never arrived", i)
		}
	}
}

// publishConfirmed publishes n messages prefix-1..prefix-n to q, each
// confirmed, within ctx. RabbitMQ 3.10 nacks, or leaves unconfirmed, a
// publish to a quorum queue made in the moments after its leader's node
// died; such a publish is sent again (RabbitMQ tells publishers to resend
// what was not confirmed), each attempt bounded by attemptTimeout, and the
// resends are logged. A resend can make the consumer see a message twice.
func publishConfirmed(ctx context.Context, t *testing.T, tr *Transport, q, prefix string, n int) {
	t.Helper()
	resent := 0
	for i := 1; i <= n; i++ {
		id := fmt.Sprintf("%s-%d", prefix, i)
		for {
			actx, cancel := context.WithTimeout(ctx, attemptTimeout)
			res, err := tr.Publish(actx, "", q, driver.Outbound{MessageID: id, Body: []byte(id), Persistent: true, Mandatory: true})
			cancel()
			if (errors.Is(err, ErrBrokerRefused) || errors.Is(err, context.DeadlineExceeded)) && ctx.Err() == nil {
				resent++
				continue
			}
			if err != nil || !res.Confirmed || !res.Routed {
				t.Fatalf("publish %s: %+v, %v; want confirmed and routed", id, res, err)
			}
			break
		}
	}
	if resent > 0 {
		t.Logf("%s: %d publishes were nacked or not confirmed in %v and sent again", prefix, resent, attemptTimeout)
	}
}

// attemptTimeout bounds one publish attempt of publishConfirmed.
const attemptTimeout = 10 * time.Second

// collect acks deliveries from box until it has seen want distinct message
// ids (the last delivery of each kept), failing when ctx ends first.
// Deliveries from before a connection loss cannot be acked; that is fine.
func collect(ctx context.Context, t *testing.T, box *inbox, want int) map[string]driver.Delivery {
	t.Helper()
	got := map[string]driver.Delivery{}
	for len(got) < want {
		select {
		case d := <-box.c:
			_ = d.Ack()
			if old, seen := got[d.MessageID]; !seen || !old.Redelivered {
				got[d.MessageID] = d
			}
		case <-ctx.Done():
			t.Fatalf("only %d of %d messages arrived: %v", len(got), want, keys(got))
		}
	}
	return got
}

func keys(m map[string]driver.Delivery) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
