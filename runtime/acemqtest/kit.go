package acemqtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// waitLimit bounds every wait for a delivery; it is a failure bound, never a
// timing assertion.
const waitLimit = 10 * time.Second

// leftoverTTL is the x-expires every suite queue carries, so a real broker
// removes what a run leaves behind.
const leftoverTTL = 60000

// kit is one subtest's transport and helpers.
type kit struct {
	t    *testing.T
	tr   driver.Transport
	ctx  context.Context
	open func(t *testing.T) driver.Transport
}

func newKit(t *testing.T, open func(t *testing.T) driver.Transport) *kit {
	tr := open(t)
	if tr == nil {
		t.Fatal("acemqtest: open returned a nil transport")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(func() {
		cancel()
		if err := tr.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return &kit{t: t, tr: tr, ctx: ctx, open: open}
}

// another opens a second transport (another connection to the same
// broker), closed when the subtest ends.
func (k *kit) another() driver.Transport {
	k.t.Helper()
	tr := k.open(k.t)
	if tr == nil {
		k.t.Fatal("acemqtest: open returned a nil transport")
	}
	k.t.Cleanup(func() { _ = tr.Close() })
	return tr
}

// name returns a unique name for a queue or exchange of this subtest.
func (k *kit) name(what string) string { return uniqueName(what) }

// uniqueName returns acemqtest-WHAT- and a random suffix.
func uniqueName(what string) string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return "acemqtest-" + what + "-" + hex.EncodeToString(b)
}

// queue declares a new queue with args (plus x-expires) and returns its name.
func (k *kit) queue(args map[string]any) string {
	k.t.Helper()
	name := k.name("q")
	if err := k.tr.DeclareQueue(k.ctx, name, queueSpec(args)); err != nil {
		k.t.Fatalf("DeclareQueue(%s): %v", name, err)
	}
	return name
}

func queueSpec(args map[string]any) driver.QueueSpec {
	all := map[string]any{"x-expires": leftoverTTL}
	for k, v := range args {
		all[k] = v
	}
	return driver.QueueSpec{Args: all}
}

// exchange declares a new auto-delete exchange of kind and returns its name.
func (k *kit) exchange(kind string) string {
	k.t.Helper()
	name := k.name("x-" + kind)
	if err := k.tr.DeclareExchange(k.ctx, name, driver.ExchangeSpec{Kind: kind, AutoDelete: true}); err != nil {
		k.t.Fatalf("DeclareExchange(%s, %s): %v", name, kind, err)
	}
	return name
}

func (k *kit) bind(queue, exchange, key string) {
	k.t.Helper()
	if err := k.tr.Bind(k.ctx, queue, exchange, key); err != nil {
		k.t.Fatalf("Bind(%s, %s, %q): %v", queue, exchange, key, err)
	}
}

// publish sends msg and fails the test on error.
func (k *kit) publish(exchange, key string, msg driver.Outbound) acemq.PublishResult {
	k.t.Helper()
	res, err := k.tr.Publish(k.ctx, exchange, key, msg)
	if err != nil {
		k.t.Fatalf("Publish(%q, %q, %s): %v", exchange, key, msg.MessageID, err)
	}
	return res
}

// send publishes a message with id to exchange and key.
func (k *kit) send(exchange, key, id string) acemq.PublishResult {
	k.t.Helper()
	return k.publish(exchange, key, driver.Outbound{MessageID: id, Body: []byte(id), ContentType: "text/plain"})
}

// routed reports whether a mandatory publish to exchange with key reached a queue.
func (k *kit) routed(exchange, key string) bool {
	k.t.Helper()
	res := k.publish(exchange, key, driver.Outbound{MessageID: k.name("probe"), Mandatory: true})
	return res.Routed
}

// inbox is a subscription's deliveries.
type inbox struct {
	k   *kit
	c   chan driver.Delivery
	sub driver.Subscription
}

// consume subscribes to queue with prefetch; deliveries are left unsettled.
func (k *kit) consume(queue string, prefetch int) *inbox {
	k.t.Helper()
	return k.consumeSpec(queue, driver.ConsumeSpec{Prefetch: prefetch})
}

// consumeSpec subscribes to queue with spec; deliveries are left unsettled.
func (k *kit) consumeSpec(queue string, spec driver.ConsumeSpec) *inbox {
	k.t.Helper()
	in := &inbox{k: k, c: make(chan driver.Delivery, 1000)}
	sub, err := k.tr.Consume(k.ctx, queue, spec, func(d driver.Delivery) { in.c <- d })
	if err != nil {
		k.t.Fatalf("Consume(%s): %v", queue, err)
	}
	in.sub = sub
	k.t.Cleanup(func() { _ = sub.Close() })
	return in
}

// next returns the next delivery, failing the test when none comes.
func (in *inbox) next() driver.Delivery {
	in.k.t.Helper()
	select {
	case d := <-in.c:
		return d
	case <-time.After(waitLimit):
		in.k.t.Fatalf("no delivery within %v", waitLimit)
		return driver.Delivery{}
	}
}

// nextAcked returns the next delivery after acking it.
func (in *inbox) nextAcked() driver.Delivery {
	in.k.t.Helper()
	d := in.next()
	if err := d.Ack(); err != nil {
		in.k.t.Fatalf("Ack(%s): %v", d.MessageID, err)
	}
	return d
}

// expect takes the next delivery and fails unless it is message id.
func (in *inbox) expect(id string) driver.Delivery {
	in.k.t.Helper()
	d := in.nextAcked()
	if d.MessageID != id {
		in.k.t.Fatalf("got message %q, want %q", d.MessageID, id)
	}
	return d
}

// eventually polls cond every millisecond until it holds, failing the test
// after waitLimit (for what a broker does asynchronously).
func (k *kit) eventually(what string, cond func() bool) {
	k.t.Helper()
	eventually(k.t, what, cond)
}

// eventually polls cond every millisecond until it holds, failing t after
// waitLimit.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited %v for %s", waitLimit, what)
		}
		time.Sleep(time.Millisecond)
	}
}
