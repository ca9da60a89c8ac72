package rabbitmq

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

type order struct {
	ID int `json:"id"`
}

func TestSchemesAreRegisteredOnImport(t *testing.T) {
	schemes := driver.TransportSchemes()
	if !slices.Contains(schemes, "amqp") || !slices.Contains(schemes, "amqps") {
		t.Fatalf("TransportSchemes() = %v, want amqp and amqps", schemes)
	}
}

func TestConnectRefusesAnInvalidOptionOfThisPackage(t *testing.T) {
	_, err := acemq.Connect(context.Background(), "amqp://127.0.0.1:1/", MaxOutstandingPublishes(-1))
	if err == nil || !strings.Contains(err.Error(), "MaxOutstandingPublishes") {
		t.Fatalf("err = %v, want the option named", err)
	}
}

func TestConnectGivesTheTransportThisPackagesOptions(t *testing.T) {
	url := brokerURL(t)
	conn := connect(t, ctxT(t), url, MaxOutstandingPublishes(3), WithoutConfirms())
	tr, ok := conn.Transport().(*Transport)
	if !ok || tr.cfg.maxOutstanding != 3 || tr.cfg.confirms {
		t.Fatalf("transport = %T %+v, want *Transport with 3 outstanding and confirms off", conn.Transport(), tr)
	}
}

func TestTypedMessagesTravelThroughTheBrokerEndToEnd(t *testing.T) {
	url, c := brokerURL(t), newCleaner(t)
	ctx := ctxT(t)
	conn := connect(t, ctx, url, RecoveryDelay(5*time.Millisecond, 50*time.Millisecond))
	q := c.queue(unique("orders"))
	c.queue(q + ".dlq")
	c.queue(q + ".parked")
	if err := conn.DeclareQueue(ctx, q); err != nil {
		t.Fatal(err)
	}
	var got atomic.Int64
	done := make(chan struct{})
	consumer, err := acemq.Consume(ctx, conn, q, func(_ context.Context, m acemq.Message[order]) acemq.Ack {
		if got.Add(1) == 50 {
			close(done)
		}
		return acemq.Accept()
	})
	if err != nil {
		t.Fatal(err)
	}
	defer consumer.Close()
	orders := make([]order, 50)
	for i := range orders {
		orders[i] = order{ID: i}
	}
	if _, err := acemq.NewPublisher[order](conn, "", q).SendAll(ctx, orders); err != nil {
		t.Fatal(err)
	}
	select {
	case <-done:
	case <-ctx.Done():
		t.Fatalf("handled %d of 50", got.Load())
	}
}

func TestMandatoryPublisherIntoNowhereSaysNoRoute(t *testing.T) {
	url := brokerURL(t)
	ctx := ctxT(t)
	conn := connect(t, ctx, url)
	err := acemq.NewPublisher[order](conn, "", unique("nobody"), acemq.Mandatory[order]()).Send(ctx, order{ID: 1})
	if err == nil || !strings.Contains(err.Error(), "reached no queue") || !strings.Contains(err.Error(), "NO_ROUTE") {
		t.Fatalf("err = %v, want reached no queue ... NO_ROUTE", err)
	}
}

func TestErrorsThroughTheConnectionCarryOnePrefix(t *testing.T) {
	url := brokerURL(t)
	ctx := ctxT(t)
	conn := connect(t, ctx, url)
	pubErr := acemq.NewPublisher[order](conn, unique("missing"), "k").Send(ctx, order{ID: 1})
	declErr := conn.DeclareExchange(ctx, unique("bad"), "nonsense")
	_, dialErr := acemq.Connect(ctx, url, MaxOutstandingPublishes(0))
	for _, err := range []error{pubErr, declErr, dialErr} {
		if err == nil || strings.Count(err.Error(), "acemq:") != 1 {
			t.Errorf("err = %v, want exactly one acemq: prefix", err)
		}
	}
	if !errors.Is(pubErr, acemq.ErrBrokerRefused) || !strings.Contains(pubErr.Error(), "NOT_FOUND") {
		t.Errorf("publish to a missing exchange: %v, want ErrBrokerRefused with NOT_FOUND", pubErr)
	}
}

func TestDialledTransportServesNewConnAndClosesWithIt(t *testing.T) {
	url, c := brokerURL(t), newCleaner(t)
	ctx := ctxT(t)
	tr, err := Dial(ctx, url, Name(unique("acemq-dial")), MaxOutstandingPublishes(10))
	if err != nil {
		t.Fatal(err)
	}
	conn, err := acemq.NewConn(tr)
	if err != nil {
		t.Fatal(err)
	}
	q := c.queue(unique("dialled"))
	if err := tr.DeclareQueue(ctx, q, driver.QueueSpec{}); err != nil {
		t.Fatal(err)
	}
	if err := acemq.NewPublisher[order](conn, "", q).Send(ctx, order{ID: 7}); err != nil {
		t.Fatal(err)
	}
	if err := conn.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := tr.Publish(ctx, "", q, driver.Outbound{MessageID: "late"}); !errors.Is(err, ErrClosed) {
		t.Fatalf("publish after conn.Close: %v, want ErrClosed (the conn owns the transport)", err)
	}
}
