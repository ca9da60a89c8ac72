package rabbitmq

import (
	"context"
	"sync"
	"testing"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
	"github.com/acemq/acemq-gen/runtime/acemqtest"
)

// brokerURL is the broker scripts/test.sh starts (acemqtest.BrokerURL).
func brokerURL(t *testing.T) string { return acemqtest.BrokerURL(t) }

// testDelay keeps recovery fast in tests.
var testDelay = RecoveryDelay(5*time.Millisecond, 50*time.Millisecond)

// openTransport dials the test broker and closes the transport at cleanup.
func openTransport(t *testing.T, opts ...acemq.ConnOption) *Transport {
	t.Helper()
	url := brokerURL(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	tr, err := Dial(ctx, url, append([]acemq.ConnOption{testDelay}, opts...)...)
	if err != nil {
		t.Fatalf("cannot reach the broker at ACEMQ_TEST_AMQP_URL (start one with scripts/broker.sh): %v", err)
	}
	t.Cleanup(func() { _ = tr.Close() })
	return tr
}

// connect connects to url with opts; the connection is closed at cleanup.
func connect(t *testing.T, ctx context.Context, url string, opts ...acemq.ConnOption) *acemq.Conn {
	t.Helper()
	conn, err := acemq.Connect(ctx, url, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// cleaner deletes what a test declared, through a connection of its own.
type cleaner struct {
	t         *testing.T
	url       string
	queues    []string
	exchanges []string
}

// newCleaner cleans up on the test broker. Without one it skips the test (or
// fails it under ACEMQ_REQUIRE_BROKER) before registering anything, so a test
// that builds its cleaner before it dials skips cleanly instead of failing in
// a cleanup that dials an empty URL.
func newCleaner(t *testing.T) *cleaner {
	return newCleanerAt(t, brokerURL(t))
}

// newCleanerAt cleans up on the broker at url; an empty url (no broker, so
// nothing was declared) registers no cleanup.
func newCleanerAt(t *testing.T, url string) *cleaner {
	c := &cleaner{t: t, url: url}
	if url != "" {
		t.Cleanup(c.run)
	}
	return c
}

func (c *cleaner) queue(name string) string    { c.queues = append(c.queues, name); return name }
func (c *cleaner) exchange(name string) string { c.exchanges = append(c.exchanges, name); return name }

// declared declares on tr a queue named uniquely after name, to be deleted
// at the end of the test, and returns its name.
func (c *cleaner) declared(tr *Transport, name string, spec driver.QueueSpec) string {
	c.t.Helper()
	q := c.queue(unique(name))
	if err := tr.DeclareQueue(ctxT(c.t), q, spec); err != nil {
		c.t.Fatal(err)
	}
	return q
}

func (c *cleaner) run() {
	conn, err := amqp.Dial(c.url)
	if err != nil {
		c.t.Errorf("cleanup: cannot connect: %v", err)
		return
	}
	defer conn.Close()
	for _, q := range c.queues {
		if ch, err := conn.Channel(); err == nil {
			_, _ = ch.QueueDelete(q, false, false, false)
			_ = ch.Close()
		}
	}
	for _, x := range c.exchanges {
		if ch, err := conn.Channel(); err == nil {
			_ = ch.ExchangeDelete(x, false, false)
			_ = ch.Close()
		}
	}
}

// unique returns prefix with a random suffix.
func unique(prefix string) string { return prefix + "-" + randomHex() }

// inbox collects deliveries of a subscription.
type inbox struct{ c chan driver.Delivery }

func newInbox() *inbox { return &inbox{c: make(chan driver.Delivery, 1000)} }

func (b *inbox) deliver(d driver.Delivery) { b.c <- d }

// next returns the next delivery, failing the test after 10 s.
func (b *inbox) next(t *testing.T) driver.Delivery {
	t.Helper()
	select {
	case d := <-b.c:
		return d
	case <-time.After(10 * time.Second):
		t.Fatal("no delivery arrived within 10 s")
		return driver.Delivery{}
	}
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// events records recovery events.
type events struct {
	mu     sync.Mutex
	list   []RecoveryEvent
	lostAt time.Time // when the last RecoveryLost arrived
	got    chan RecoveryEvent
}

func newEvents() *events { return &events{got: make(chan RecoveryEvent, 1000)} }

func (e *events) record(ev RecoveryEvent) {
	e.mu.Lock()
	e.list = append(e.list, ev)
	if ev.Kind == RecoveryLost {
		e.lostAt = time.Now()
	}
	e.mu.Unlock()
	e.got <- ev
}

// sinceLost is the time since the last RecoveryLost event arrived.
func (e *events) sinceLost() time.Duration {
	e.mu.Lock()
	defer e.mu.Unlock()
	return time.Since(e.lostAt)
}

// waitFor waits for an event of kind, failing after 10 s.
func (e *events) waitFor(t *testing.T, kind string) RecoveryEvent {
	t.Helper()
	return e.waitWithin(t, kind, 10*time.Second, "10 s")
}

// waitWithin waits for an event of kind for up to d (said as within).
func (e *events) waitWithin(t *testing.T, kind string, d time.Duration, within string) RecoveryEvent {
	t.Helper()
	timeout := time.After(d)
	for {
		select {
		case ev := <-e.got:
			if ev.Kind == kind {
				return ev
			}
		case <-timeout:
			t.Fatalf("no %q recovery event within %s", kind, within)
		}
	}
}

// dropConnection closes the socket under the live connection, as a network
// failure would (the test seam for recovery).
func (t *Transport) dropConnection() {
	t.mu.Lock()
	nc := t.netConn
	t.mu.Unlock()
	if nc != nil {
		_ = nc.Close()
	}
}

// generation returns the live connection (nil while down).
func (t *Transport) liveConn() *amqp.Connection {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.conn
}

// cutOff drops t's connection with its URL pointing where nothing answers,
// so every redial fails until the test gives back the URL it returns.
func (t *Transport) cutOff() (good string) {
	good = t.dialURL()
	t.setURL("amqp://guest:guest@127.0.0.1:1/")
	t.dropConnection()
	return good
}

// setURL changes where the next redial goes (the test seam for failed redials).
func (t *Transport) setURL(u string) {
	hosts, err := parseHosts(u)
	if err != nil {
		panic(err)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.url, t.hosts, t.at = u, hosts, 0
}

// TestACleanerWithoutABrokerURLFailsNothing: a cleaner built with no broker
// URL (a test about to skip: most here build their cleaner before they dial)
// registers no cleanup, where one used to dial the empty URL and fail the
// skipped test, so `go test ./...` failed on a machine without RabbitMQ.
// scripts/test.sh also runs every package once with no broker variables set.
func TestACleanerWithoutABrokerURLFailsNothing(t *testing.T) {
	passed := t.Run("a test with no broker", func(t *testing.T) {
		clean := newCleanerAt(t, "")
		clean.queue(unique("never-declared"))
	})
	if !passed {
		t.Fatal("the cleaner's cleanup failed a test that had no broker to clean")
	}
}

// brokerEnvPair is acemqtest.BrokerEnv of two variables, returned as two
// strings ("" when the test is skipped).
func brokerEnvPair(t *testing.T, hint, first, second string) (string, string) {
	t.Helper()
	v := acemqtest.BrokerEnv(t, hint, first, second)
	if v == nil {
		return "", ""
	}
	return v[0], v[1]
}

// consumeInbox consumes q on tr into a new inbox, with at most prefetch
// unsettled deliveries, and returns the inbox and the subscription.
func consumeInbox(ctx context.Context, t *testing.T, tr *Transport, q string, prefetch int) (*inbox, driver.Subscription) {
	t.Helper()
	box := newInbox()
	sub, err := tr.Consume(ctx, q, driver.ConsumeSpec{Prefetch: prefetch}, box.deliver)
	if err != nil {
		t.Fatal(err)
	}
	return box, sub
}
