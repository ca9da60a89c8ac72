package rabbitmq

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// refuseTenants is a consume interceptor refusing messages marked refuse=yes.
func refuseTenants(_ context.Context, c *acemq.ConsumeContext) error {
	if c.Envelope.Headers["refuse"] == "yes" {
		return errors.New("tenant unknown")
	}
	return nil
}

// thirdParty reads what the library set aside, as another client would:
// plain amqp091-go, basic.get, no acemq code.
type thirdParty struct {
	t  *testing.T
	ch *amqp.Channel
}

func newThirdParty(t *testing.T, url string) *thirdParty {
	t.Helper()
	conn, err := amqp.Dial(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	ch := rawChannel(t, conn)
	return &thirdParty{t: t, ch: ch}
}

// take waits up to 10 s for n messages on queue and returns their
// x-acemq-error headers.
func (p *thirdParty) take(queue string, n int) []string {
	p.t.Helper()
	var reasons []string
	deadline := time.Now().Add(10 * time.Second)
	for len(reasons) < n && time.Now().Before(deadline) {
		d, ok, err := p.ch.Get(queue, true)
		if err != nil {
			p.t.Fatalf("basic.get %s: %v", queue, err)
		}
		if !ok {
			time.Sleep(10 * time.Millisecond)
			continue
		}
		reason, _ := d.Headers["x-acemq-error"].(string)
		reasons = append(reasons, reason)
	}
	if len(reasons) != n {
		p.t.Fatalf("%s held %d messages within 10 s, want %d", queue, len(reasons), n)
	}
	return reasons
}

func TestBadInputIsSetAsideOnTheBrokerWithAReasonAnotherClientReads(t *testing.T) {
	url, c := brokerURL(t), newCleaner(t)
	ctx := ctxT(t)
	conn, err := acemq.Connect(ctx, url, acemq.WithConsumeInterceptor(refuseTenants), testDelay)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	q := c.queue(unique("bad-input"))
	c.queue(acemq.DeadLetterQueue(q))
	c.queue(acemq.ParkedQueue(q))
	if err := acemq.NewTopology().Queue(q).DeadLetters(q).Apply(ctx, conn); err != nil {
		t.Fatal(err)
	}
	var handled atomic.Int64
	consumer, err := acemq.Consume(ctx, conn, q, func(_ context.Context, m acemq.Message[order]) acemq.Ack {
		handled.Add(1)
		if m.Payload.ID == 2 {
			panic("boom on order 2")
		}
		return acemq.Accept()
	})
	if err != nil {
		t.Fatal(err)
	}
	defer consumer.Close()
	publishBadInput(t, ctx, conn, q)

	reader := newThirdParty(t, url)
	parked := reader.take(acemq.ParkedQueue(q), 1)
	if !strings.HasPrefix(parked[0], "could not be decoded: ") {
		t.Errorf("parked reason = %q, want could not be decoded: ...", parked[0])
	}
	dead := strings.Join(reader.take(acemq.DeadLetterQueue(q), 2), "\n")
	for _, want := range []string{"panicked", "boom on order 2", "an interceptor refused it: tenant unknown"} {
		if !strings.Contains(dead, want) {
			t.Errorf("dead-letter reasons %q lack %q", dead, want)
		}
	}
	assertSetAsideOnce(t, reader, q, &handled)
}

// publishBadInput sends a body that is not JSON, an order the handler
// panics on, and one the interceptor refuses.
func publishBadInput(t *testing.T, ctx context.Context, conn *acemq.Conn, q string) {
	t.Helper()
	env, err := acemq.NewEnvelope("order")
	if err != nil {
		t.Fatal(err)
	}
	raw := driver.Outbound{Body: []byte("{not json"), ContentType: "application/json", MessageID: env.ID,
		Headers: env.ToWire(), Persistent: true}
	if _, err := conn.PublishRaw(ctx, "", q, raw); err != nil {
		t.Fatal(err)
	}
	pub := acemq.NewPublisher[order](conn, "", q)
	if err := pub.Send(ctx, order{ID: 2}); err != nil {
		t.Fatal(err)
	}
	if err := pub.Send(ctx, order{ID: 3}, acemq.Header("refuse", "yes")); err != nil {
		t.Fatal(err)
	}
}

// assertSetAsideOnce checks nothing came back: the undecodable body was
// never retried, the panic ran the handler once, the refusal never reached it.
func assertSetAsideOnce(t *testing.T, reader *thirdParty, q string, handled *atomic.Int64) {
	t.Helper()
	for _, name := range []string{q, acemq.ParkedQueue(q), acemq.DeadLetterQueue(q)} {
		info, err := reader.ch.QueueDeclarePassive(name, false, false, false, false, nil)
		if err != nil || info.Messages != 0 {
			t.Errorf("%s holds %d messages (%v) after the set-asides were taken, want 0", name, info.Messages, err)
		}
	}
	if n := handled.Load(); n != 1 {
		t.Errorf("the handler ran %d times, want once (only the order that panicked reaches it)", n)
	}
}
