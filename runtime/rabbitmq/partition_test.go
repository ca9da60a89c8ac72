//go:build partition

// The partition tests run inside the network namespace of
// scripts/partition.sh (go test -tags partition, through `partition.sh
// exec`, which sets ACEMQ_TEST_PARTITION_URL); scripts/test.sh runs them in
// a step of their own.

package rabbitmq

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// partitionScript runs scripts/partition.sh with args.
func partitionScript(t *testing.T, args ...string) string {
	t.Helper()
	out, err := exec.Command("../../scripts/partition.sh", args...).Output()
	if err != nil {
		t.Fatalf("partition.sh %s: %v", strings.Join(args, " "), err)
	}
	return strings.TrimSpace(string(out))
}

// dialFirstNode dials url until the transport is connected to its first
// host (node 1 is still resuming after an earlier partition while its
// listener refuses connections).
func dialFirstNode(t *testing.T, url string, opts ...acemq.ConnOption) *Transport {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(time.Second) {
		tr, err := Dial(ctxT(t), url, opts...)
		if err == nil {
			if _, at := tr.Hosts(); at == 0 {
				return tr
			}
			_ = tr.Close()
		}
		if time.Now().After(deadline) {
			t.Fatalf("no connection to node 1 within a minute (last error %v)", err)
		}
	}
}

// confirmLog records when each publish was confirmed.
type confirmLog struct {
	mu        sync.Mutex
	confirmed map[string]bool
	times     []time.Time
	errs      []error
}

// publishUntil publishes numbered messages to q, one after another (some
// 100 a second, so the drain is short), until stop closes.
func (l *confirmLog) publishUntil(tr *Transport, q string, stop <-chan struct{}) {
	for i := 0; ; i++ {
		select {
		case <-stop:
			return
		default:
		}
		id := fmt.Sprintf("p-%d", i)
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		_, err := tr.Publish(ctx, "", q, driver.Outbound{MessageID: id, Body: []byte(id)})
		cancel()
		l.mu.Lock()
		if err != nil {
			l.errs = append(l.errs, err)
		} else {
			l.confirmed[id], l.times = true, append(l.times, time.Now())
		}
		l.mu.Unlock()
		time.Sleep(10 * time.Millisecond)
	}
}

// longestGap is the longest time without a confirm after from.
func (l *confirmLog) longestGap(from time.Time) time.Duration {
	var gap time.Duration
	last := from
	for _, at := range l.times {
		if at.After(from) {
			gap, last = max(gap, at.Sub(last)), at
		}
	}
	return gap
}

// drain takes every message from q and returns the confirmed ids not found.
func (l *confirmLog) drain(t *testing.T, tr *Transport, q string) []string {
	t.Helper()
	h, err := tr.Hold(ctxT(t), q)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	seen := map[string]bool{}
	for idle := 0; idle < 20; {
		d, ok, err := h.Next(ctxT(t))
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			idle++
			time.Sleep(100 * time.Millisecond)
			continue
		}
		seen[d.MessageID] = true
		_ = d.Acker.Ack()
	}
	var lost []string
	for id := range l.confirmed {
		if !seen[id] {
			lost = append(lost, id)
		}
	}
	return lost
}

// TestPartitionTheLeaderIsolatedWithThePublishersNodeLosesNothingAndStallsOnlyBriefly:
// the publisher is connected to node 1, which leads the quorum queue; node 1
// is cut from both others for 20 s. It pauses (pause_minority) and closes
// the connection; the transport redials a node of the majority before a new
// leader is elected, and the channel it opens gets no confirm until
// ChannelStallTimeout reopens it. Nothing confirmed is lost, no publish
// fails, and the longest time without a confirm stays well under the
// partition's length.
func TestPartitionTheLeaderIsolatedWithThePublishersNodeLosesNothingAndStallsOnlyBriefly(t *testing.T) {
	url := os.Getenv("ACEMQ_TEST_PARTITION_URL")
	if url == "" {
		t.Fatal("ACEMQ_TEST_PARTITION_URL is not set: run under scripts/partition.sh exec")
	}
	const cut = 20 * time.Second
	partitionScript(t, "wait-whole", "180") // an earlier run's paused node may still be restarting
	tr := dialFirstNode(t, url)
	defer tr.Close()
	q := unique("partition")
	args := map[string]any{"x-queue-type": "quorum", "x-queue-leader-locator": "client-local"}
	if err := tr.DeclareQueue(ctxT(t), q, driver.QueueSpec{Durable: true, Args: args}); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tr.DeleteQueue(context.Background(), q) }()
	if hosts, at := tr.Hosts(); at != 0 || !strings.HasPrefix(partitionScript(t, "leader", q), "1 ") {
		t.Fatalf("connected to %s, queue led by %s; want node 1 for both", hosts[at], partitionScript(t, "leader", q))
	}
	l := &confirmLog{confirmed: map[string]bool{}}
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() { l.publishUntil(tr, q, stop); close(done) }()
	time.Sleep(3 * time.Second)
	fault := time.Now()
	partitionScript(t, "isolate", "1")
	time.Sleep(cut)
	partitionScript(t, "heal-all")
	time.Sleep(10 * time.Second)
	close(stop)
	<-done
	gap := l.longestGap(fault)
	t.Logf("%d confirmed, %d publish errors, longest time without a confirm after the cut: %v (cut %v)", len(l.confirmed), len(l.errs), gap, cut)
	if len(l.errs) > 0 {
		t.Errorf("%d publishes failed, the first: %v", len(l.errs), l.errs[0])
	}
	if gap >= cut-3*time.Second {
		t.Errorf("no confirm for %v of a %v partition: the stalled channel was not reopened", gap, cut)
	}
	if lost := l.drain(t, tr, q); len(lost) > 0 {
		t.Errorf("%d confirmed messages lost, such as %v", len(lost), lost[:min(5, len(lost))])
	}
}
