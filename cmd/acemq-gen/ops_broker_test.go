package main

import (
	"context"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"

	dlqop "github.com/acemq/acemq-gen/cmd/acemq-gen/internal/dlq"
	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/ops"
	"github.com/acemq/acemq-gen/generator"
	"github.com/acemq/acemq-gen/generator/contractspec"
	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
	"github.com/acemq/acemq-gen/runtime/acemqimpl"
	"github.com/acemq/acemq-gen/runtime/acemqtest"
	"github.com/acemq/acemq-gen/runtime/avro"
	"github.com/acemq/acemq-gen/runtime/crypto"
	"github.com/acemq/acemq-gen/runtime/patterns"
)

const opsWait = 15 * time.Second

// opsRig is one contract on the broker: its domain and service names are
// unique to the test, and everything it declares is deleted at cleanup.
type opsRig struct {
	t        *testing.T
	url      string
	dir      string
	domain   string
	service  string
	entries  []generator.Entry
	conn     *acemq.Conn
	keyring  *crypto.Keyring
	keysEnv  string
	declared acemq.Declarations
}

func newOpsRig(t *testing.T, contract string) *opsRig {
	t.Helper()
	url := acemqtest.BrokerURL(t)
	id := strings.ReplaceAll(acemq.NewUUID()[:8], "-", "")
	r := &opsRig{t: t, url: url, dir: t.TempDir(), domain: "ops" + id, service: "svc" + id}
	src := strings.ReplaceAll(contract, "DOMAIN", r.domain)
	if err := os.WriteFile(filepath.Join(r.dir, "ops.acemq.yaml"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var err error
	if r.entries, err = ops.ReadCatalog([]string{r.dir}); err != nil {
		t.Fatal(err)
	}
	key := crypto.Key{ID: "k1", Secret: []byte("0123456789abcdef0123456789abcdef")}
	r.keysEnv = "k1=" + base64.StdEncoding.EncodeToString(key.Secret)
	if r.keyring, err = crypto.NewKeyring(key); err != nil {
		t.Fatal(err)
	}
	if r.conn, err = acemq.Connect(context.Background(), url, crypto.WithKeyring(r.keyring)); err != nil {
		t.Fatal(err)
	}
	topo, err := contractspec.Topology(r.entries, []string{r.service})
	if err != nil {
		t.Fatal(err)
	}
	if r.declared, err = topo.Declarations(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.cleanup)
	return r
}

func (r *opsRig) cleanup() {
	_ = r.conn.Close()
	conn, err := amqp.Dial(r.url)
	if err != nil {
		return
	}
	defer conn.Close()
	for _, q := range r.declared.Queues {
		if ch, err := conn.Channel(); err == nil {
			_, _ = ch.QueueDelete(q.Name, false, false, false)
			_, _ = ch.QueueDelete(q.Name+".migrate", false, false, false)
			_ = ch.Close()
		}
	}
	if ch, err := conn.Channel(); err == nil {
		_ = ch.ExchangeDelete(r.domain, false, false)
		_ = ch.Close()
	}
}

func (r *opsRig) entry(name string) generator.Entry {
	for _, e := range r.entries {
		if e.Name == name {
			return e
		}
	}
	r.t.Fatalf("no entry %s", name)
	return generator.Entry{}
}

// cli runs acemq-gen with ACEMQ_KEYS set to the rig's key.
func (r *opsRig) cli(args ...string) (int, string, string) {
	r.t.Helper()
	r.t.Setenv(ops.KeysEnv, r.keysEnv)
	return cli(r.t, args...)
}

func (r *opsRig) waitCount(queue string, n int) {
	r.t.Helper()
	deadline := time.Now().Add(opsWait)
	for {
		got, err := r.conn.MessageCount(context.Background(), queue)
		if err == nil && got == n {
			return
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("%s holds %d messages (%v); want %d", queue, got, err, n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

const dlqContract = `acemq: 1
domain: DOMAIN
retry: {attempts: 1, backoff: fixed, initial: 1s}
events:
  ItemShipped:
    codec: avro
    fields: {sku: string, count: int}
commands:
  CancelOrder:
    fields: {orderId: string, tenant: string}
  RefundOrder:
    encrypted: true
    fields: {orderId: string}
`

// handlers are the rig's real consumers: broken until fixed, then
// accepting and recording what they accept.
type handlers struct {
	mu       sync.Mutex
	fixed    bool
	accepted []acemq.Envelope
	payloads []map[string]any
}

func (h *handlers) handle(broken func(map[string]any) acemq.Ack) acemq.Handler[map[string]any] {
	return func(_ context.Context, m acemq.Message[map[string]any]) acemq.Ack {
		h.mu.Lock()
		defer h.mu.Unlock()
		if !h.fixed {
			return broken(m.Payload)
		}
		h.accepted = append(h.accepted, m.Envelope)
		h.payloads = append(h.payloads, m.Payload)
		return acemq.Accept()
	}
}

func (h *handlers) fix() { h.mu.Lock(); h.fixed = true; h.mu.Unlock() }

func (h *handlers) acceptedSoFar() []acemq.Envelope {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]acemq.Envelope(nil), h.accepted...)
}

func (r *opsRig) consume(queue string, h acemq.Handler[map[string]any], opts ...acemq.ConsumeOption) {
	r.t.Helper()
	opts = append(opts, acemq.RetryWith(acemq.NoRetry()))
	k, err := acemq.Consume(context.Background(), r.conn, queue, h, opts...)
	if err != nil {
		r.t.Fatal(err)
	}
	r.t.Cleanup(func() { _ = k.Close() })
}

func (r *opsRig) send(e generator.Entry, codec acemq.Codec, payload map[string]any) {
	r.t.Helper()
	p := acemq.NewPublisher[map[string]any](r.conn, e.Exchange, e.RoutingKey, acemq.PublishWith[map[string]any](codec), acemq.Mandatory[map[string]any]())
	if err := p.Send(context.Background(), payload); err != nil {
		r.t.Fatal(err)
	}
}

// TestDLQListShowAndRedriveWorkOnMessagesRealHandlersDeadLettered is the
// issue's proof: dead-lettered and parked messages (JSON, Avro, encrypted)
// listed in their groups, shown decoded, redriven selectively with stamps and
// reset attempts, then accepted by the fixed handler.
func TestDLQListShowAndRedriveWorkOnMessagesRealHandlersDeadLettered(t *testing.T) {
	r := newOpsRig(t, dlqContract)
	ctx := context.Background()
	if err := mustTopology(t, r).Apply(ctx, r.conn); err != nil {
		t.Fatal(err)
	}
	cancel, refund, shipped := r.entry("CancelOrder"), r.entry("RefundOrder"), r.entry("ItemShipped")
	eventQueue, _ := acemqimpl.SubscriberQueue(r.service, shipped.RoutingKey)
	avroCodec, err := avro.OfCodec(shipped.AvroSchema)
	if err != nil {
		t.Fatal(err)
	}
	sealed := crypto.Wrap(acemq.JSONCodec{}, r.keyring)

	h := &handlers{}
	r.consume(cancel.Queue, h.handle(func(p map[string]any) acemq.Ack {
		if p["tenant"] == "t2" {
			return acemq.Park(fmt.Errorf("tenant t2 is suspended"))
		}
		return acemq.Reject(acemq.Fatalf("boom: tenant %v", p["tenant"]))
	}))
	r.consume(refund.Queue, h.handle(func(map[string]any) acemq.Ack {
		return acemq.Reject(acemq.Fatalf("the payment provider refused"))
	}), acemq.ConsumeWith(sealed))
	r.consume(eventQueue, h.handle(func(map[string]any) acemq.Ack {
		return acemq.Reject(acemq.Fatalf("unknown sku"))
	}), acemq.ConsumeWith(avroCodec))

	for _, p := range []map[string]any{{"orderId": "o1", "tenant": "t1"}, {"orderId": "o2", "tenant": "t1"},
		{"orderId": "o3", "tenant": "t2"}, {"orderId": "o4", "tenant": "t3"}} {
		r.send(cancel, acemq.JSONCodec{}, p)
	}
	r.send(refund, sealed, map[string]any{"orderId": "r1"})
	r.send(shipped, avroCodec, map[string]any{"sku": "sku-9", "count": 3})
	cancelDLQ := acemq.DeadLetterQueue(cancel.Queue)
	r.waitCount(cancelDLQ, 3)
	r.waitCount(acemq.ParkedQueue(cancel.Queue), 1)
	r.waitCount(acemq.DeadLetterQueue(refund.Queue), 1)
	r.waitCount(acemq.DeadLetterQueue(eventQueue), 1)
	// A message no contract describes, left on the dead-letter queue by hand.
	if _, err := r.conn.PublishRaw(ctx, "", cancelDLQ, driver.Outbound{Body: []byte{0xde, 0xad},
		Headers: map[string]any{semconv.HeaderType: "mystery", semconv.HeaderError: "who knows"}, Mandatory: true}); err != nil {
		t.Fatal(err)
	}
	r.waitCount(cancelDLQ, 4)

	t.Run("list", func(t *testing.T) {
		code, out, errOut := r.cli("dlq", "list", "--url", r.url, "--service", r.service, r.dir)
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		for _, want := range []string{
			cancelDLQ + "  4 messages",
			`command CancelOrder (cancel.order)  "the handler rejected it: boom: tenant t1"  2 messages, first seen `,
			`command CancelOrder (cancel.order)  "the handler rejected it: boom: tenant t3"  1 messages`,
			"mystery (no contract describes it)",
			acemq.ParkedQueue(cancel.Queue) + "  1 messages",
			`"the handler parked it: tenant t2 is suspended"`,
			acemq.DeadLetterQueue(refund.Queue) + "  1 messages",
			`"the handler rejected it: the payment provider refused"`,
			acemq.DeadLetterQueue(eventQueue) + "  1 messages",
			`event ItemShipped (item.shipped)  "the handler rejected it: unknown sku"`,
			"attempts 1",
		} {
			if !strings.Contains(collapse(out), collapse(want)) {
				t.Errorf("dlq list lacks %q:\n%s", want, out)
			}
		}
		if strings.Contains(out+errOut, base64.StdEncoding.EncodeToString([]byte("0123456789abcdef0123456789abcdef"))) {
			t.Error("dlq list printed a key")
		}
		r.waitCount(cancelDLQ, 4) // listing moved nothing
	})

	t.Run("show", func(t *testing.T) {
		for queue, want := range map[string][]string{
			acemq.DeadLetterQueue(refund.Queue): {`"orderId": "r1"`, `"message": "RefundOrder"`, `"error": "the handler rejected it: the payment provider refused"`},
			acemq.DeadLetterQueue(eventQueue):   {`"sku": "sku-9"`, `"count": 3`, `"kind": "event"`},
			cancelDLQ:                           {`"orderId": "o1"`, `"attempt": 1`, `no contract describes messages of type \"mystery\"`, `"body": "3q0="`},
		} {
			code, out, errOut := r.cli("dlq", "show", "--url", r.url, queue, r.dir)
			if code != exitOK {
				t.Fatalf("show %s: exit %d: %s", queue, code, errOut)
			}
			for _, w := range want {
				if !strings.Contains(out, w) {
					t.Errorf("dlq show %s lacks %s:\n%s", queue, w, out)
				}
			}
		}
		code, out, _ := r.cli("dlq", "show", "--url", r.url, "--raw", acemq.DeadLetterQueue(refund.Queue), r.dir)
		if code != exitOK || strings.Contains(out, `"payload"`) || !strings.Contains(out, `"body": "`) {
			t.Errorf("dlq show --raw: exit %d:\n%s", code, out)
		}
		r.waitCount(cancelDLQ, 4)
	})

	h.fix()
	t.Run("redrive", func(t *testing.T) {
		code, out, _ := r.cli("dlq", "redrive", "--url", r.url, "--reason", "boom", "--dry-run", cancelDLQ, r.dir)
		if code != exitOK || !strings.Contains(out, "would move 3 of 4; nothing changed") {
			t.Errorf("dry run: exit %d:\n%s", code, out)
		}
		r.waitCount(cancelDLQ, 4)

		code, out, errOut := r.cli("dlq", "redrive", "--url", r.url, "--where", "tenant=t1", "--limit", "1", cancelDLQ, r.dir)
		if code != exitOK || !strings.Contains(out, "moved 1 in all") {
			t.Fatalf("redrive --where --limit: exit %d: %s%s", code, out, errOut)
		}
		waitAccepted(t, h, 1)
		env := h.acceptedSoFar()[0]
		if env.Attempt != 1 || env.Headers[patterns.HeaderReplayedFrom] != cancelDLQ || env.Headers[patterns.HeaderReplayedAt] == nil {
			t.Errorf("the fixed handler got attempt %d, headers %v; want attempt 1 and the replay stamps", env.Attempt, env.Headers)
		}
		r.waitCount(cancelDLQ, 3)

		code, out, errOut = r.cli("dlq", "redrive", "--url", r.url, "--type", "CancelOrder", "--rate", "100/s", cancelDLQ, r.dir)
		if code != exitOK || !strings.Contains(out, "moved 2 in all") {
			t.Fatalf("redrive --type: exit %d: %s%s", code, out, errOut)
		}
		waitAccepted(t, h, 3)
		r.waitCount(cancelDLQ, 1) // the message no contract describes stays

		for _, q := range []string{acemq.ParkedQueue(cancel.Queue), acemq.DeadLetterQueue(refund.Queue), acemq.DeadLetterQueue(eventQueue)} {
			if code, out, errOut := r.cli("dlq", "redrive", "--url", r.url, q, r.dir); code != exitOK || !strings.Contains(out, "moved 1 in all") {
				t.Errorf("redrive %s: exit %d: %s%s", q, code, out, errOut)
			}
		}
		waitAccepted(t, h, 6)
	})
}

func mustTopology(t *testing.T, r *opsRig) *acemq.Topology {
	t.Helper()
	topo, err := contractspec.Topology(r.entries, []string{r.service})
	if err != nil {
		t.Fatal(err)
	}
	return topo
}

func waitAccepted(t *testing.T, h *handlers, n int) {
	t.Helper()
	deadline := time.Now().Add(opsWait)
	for len(h.acceptedSoFar()) < n {
		if time.Now().After(deadline) {
			t.Fatalf("the fixed handler accepted %d; want %d", len(h.acceptedSoFar()), n)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if got := len(h.acceptedSoFar()); got != n {
		t.Fatalf("the fixed handler accepted %d; want exactly %d", got, n)
	}
}

// collapse squeezes runs of spaces, so tabwriter's padding does not matter.
func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

const scheduledDLQContract = `acemq: 1
domain: DOMAIN
events:
  ReminderDue:
    schedulable: true
    fields: {note: string}
`

// TestDLQListAndShowReadTheScheduleDueDLQ: a scheduled message whose
// destination takes none is set aside to acemq.schedule.due.dlq by the
// scheduler; dlq list and show find it there from the contracts, decoded.
func TestDLQListAndShowReadTheScheduleDueDLQ(t *testing.T) {
	r := newOpsRig(t, scheduledDLQContract)
	ctx := context.Background()
	if err := mustTopology(t, r).Apply(ctx, r.conn); err != nil {
		t.Fatal(err)
	}
	sched, err := patterns.NewScheduler(ctx, r.conn)
	if err != nil {
		t.Fatal(err)
	}
	defer sched.Close()
	e := r.entry("ReminderDue")
	eventQueue, _ := acemqimpl.SubscriberQueue(r.service, e.RoutingKey)
	if err := r.conn.DeleteQueue(ctx, eventQueue); err != nil { // no subscriber left: at its due time it reaches no queue
		t.Fatal(err)
	}
	note := "call back " + acemq.NewUUID()[:8]
	s, err := acemq.NewPublisher[map[string]any](r.conn, e.Exchange, e.RoutingKey).
		SendAfter(ctx, 500*time.Millisecond, map[string]any{"note": note})
	if err != nil {
		t.Fatal(err)
	}
	dlq := acemq.DeadLetterQueue(semconv.ScheduleDueQueue)
	waitSetAside(t, r.conn, dlq, s.ID())
	code, out, errOut := r.cli("dlq", "list", "--url", r.url, r.dir)
	if code != exitOK || !strings.Contains(out, dlq+"  ") ||
		!strings.Contains(out, "event ReminderDue ("+e.RoutingKey+")") || !strings.Contains(out, "reached no queue") {
		t.Fatalf("dlq list: exit %d, stdout:\n%s\nstderr: %s", code, out, errOut)
	}
	code, out, errOut = r.cli("dlq", "show", "--url", r.url, dlq, r.dir)
	if code != exitOK || !strings.Contains(out, s.ID()) || !strings.Contains(out, note) {
		t.Fatalf("dlq show %s: exit %d, want message %s with %q decoded; stdout:\n%s\nstderr: %s", dlq, code, s.ID(), note, out, errOut)
	}
	// the subscriber is back: redrive hands the message to the scheduler again, which delivers it
	if err := mustTopology(t, r).Apply(ctx, r.conn); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = r.cli("dlq", "redrive", "--url", r.url, "--where", "note="+note, dlq, r.dir)
	if code != exitOK {
		t.Fatalf("dlq redrive %s: exit %d\n%s\n%s", dlq, code, out, errOut)
	}
	waitSetAside(t, r.conn, eventQueue, s.ID())
}

// waitSetAside waits until the message with id is on queue (left there):
// set aside there, or delivered there.
func waitSetAside(t *testing.T, conn *acemq.Conn, queue, id string) {
	t.Helper()
	deadline := time.Now().Add(opsWait)
	for time.Now().Before(deadline) {
		msgs, err := dlqop.Peek(context.Background(), conn, queue)
		if err == nil && slices.ContainsFunc(msgs, func(m dlqop.Peeked) bool { return m.Envelope.ID == id }) {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("message %s never reached %s", id, queue)
}
