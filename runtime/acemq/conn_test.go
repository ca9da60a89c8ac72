package acemq_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

func TestUnknownSchemeNamesTheImportThatAddsIt(t *testing.T) {
	_, err := acemq.Connect(context.Background(), "amqpx://localhost")
	if err == nil {
		t.Fatal("an unknown scheme connected")
	}
	for _, want := range []string{`no transport is registered for "amqpx"`, "known schemes are [", "memory",
		`add the blank import _ "github.com/acemq/acemq-gen/runtime/rabbitmq"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q lacks %q", err, want)
		}
	}
}

func TestRegisteredTransportIsDialledWithTheConnectionsExtensions(t *testing.T) {
	key := acemq.NewExtension[string]("test.key")
	var seen string
	driver.RegisterTransport("testdial", func(ctx context.Context, url string, ext driver.Extensions) (driver.Transport, error) {
		seen, _ = key.Of(ext)
		return nil, errors.New("no broker here")
	})
	if !slices.Contains(driver.TransportSchemes(), "testdial") || !slices.Contains(driver.TransportSchemes(), "memory") {
		t.Fatalf("schemes %v", driver.TransportSchemes())
	}
	_, err := acemq.Connect(context.Background(), "testdial://x", key.Option("v"))
	if err == nil || !strings.Contains(err.Error(), "no broker here") || seen != "v" {
		t.Fatalf("got %v, extension %q", err, seen)
	}
}

func TestConnOptionsRefuseUnusableValues(t *testing.T) {
	cases := map[string]struct {
		opt  acemq.ConnOption
		want string
	}{
		"codec":     {acemq.WithCodec(nil), "acemq: WithCodec was given a nil codec"},
		"publish":   {acemq.WithPublishInterceptor(nil), "acemq: the interceptor is nil"},
		"consume":   {acemq.WithConsumeInterceptor(nil), "acemq: the interceptor is nil"},
		"retry":     {acemq.WithRetry(acemq.RetryPolicy{}), "acemq: RetryPolicy.MaxAttempts must be at least 1, got 0"},
		"prefetch":  {acemq.WithPrefetch(-1), "acemq: WithPrefetch must not be negative, got -1"},
		"logger":    {acemq.WithLogger(nil), "acemq: WithLogger was given a nil logger"},
		"empty org": {acemq.WithOrigin(""), "acemq: WithOrigin was given an empty origin"},
	}
	for name, c := range cases {
		_, err := acemq.Connect(context.Background(), brokerURL(t), c.opt)
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: got %v, want %q", name, err, c.want)
		}
	}
}

func TestConnDefaultCodecIsJSON(t *testing.T) {
	conn := connect(t)
	if _, ok := conn.Codec().(acemq.JSONCodec); !ok {
		t.Errorf("codec %T", conn.Codec())
	}
}

func TestRedeclaringAQueueWithOtherSettingsIsPreconditionFailed(t *testing.T) {
	conn := connect(t)
	declare(t, conn, "orders", acemq.QueueArg("x-message-ttl", 1000))
	err := conn.DeclareQueue(context.Background(), "orders", acemq.QueueArg("x-message-ttl", 2000))
	if err == nil || !strings.Contains(err.Error(), "PRECONDITION_FAILED") || !strings.Contains(err.Error(), "x-message-ttl") ||
		!strings.Contains(err.Error(), `"orders"`) {
		t.Fatalf("got %v", err)
	}
}

func TestDistinctMemoryURLsAreDistinctBrokers(t *testing.T) {
	a := connect(t)
	same, _ := acemq.Connect(context.Background(), brokerURL(t))
	other, _ := acemq.Connect(context.Background(), brokerURL(t)+"-other")
	defer same.Close()
	defer other.Close()
	declare(t, a, "orders")
	if err := same.Bind(context.Background(), "orders", "amq.missing", "k"); err == nil || !strings.Contains(err.Error(), "no exchange") {
		t.Fatalf("same broker, missing exchange: %v", err)
	}
	if err := other.DeclareExchange(context.Background(), "x", "direct"); err != nil {
		t.Fatal(err)
	}
	if err := other.Bind(context.Background(), "orders", "x", "k"); err == nil || !strings.Contains(err.Error(), `no queue "orders"`) {
		t.Fatalf("another broker saw the queue: %v", err)
	}
}

func TestConfirmsOffPublishesUnconfirmed(t *testing.T) {
	conn, err := acemq.Connect(context.Background(), brokerURL(t)+"?confirms=off")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	declare(t, conn, "orders")
	res, err := acemq.NewPublisher[Order](conn, "", "orders").SendResult(context.Background(), Order{})
	if err != nil || res.Confirmed || !res.Routed {
		t.Fatalf("%+v %v", res, err)
	}
}

func TestNewConnRefusesANilTransport(t *testing.T) {
	if _, err := acemq.NewConn(nil); err == nil {
		t.Fatal("NewConn(nil) succeeded")
	}
}

func TestPublishingOnAClosedConnectionFailsWithErrClosed(t *testing.T) {
	conn := connect(t)
	_ = conn.Close()
	err := acemq.NewPublisher[Order](conn, "", "orders").Send(context.Background(), Order{})
	_, rawErr := conn.PublishRaw(context.Background(), "", "orders", driver.Outbound{})
	if !errors.Is(err, acemq.ErrClosed) || !errors.Is(rawErr, acemq.ErrClosed) {
		t.Fatalf("got %v and %v", err, rawErr)
	}
}

func TestWrappedErrorsCarryTheAcemqPrefixOnce(t *testing.T) {
	conn := connect(t)
	_, err := acemq.Consume(context.Background(), conn, "ghost",
		func(context.Context, acemq.Message[Order]) acemq.Ack { return acemq.Accept() },
		acemq.RetryWith(acemq.FixedRetry(2, time.Minute))) // broker waits: binds ghost to acemq.retry first
	if err == nil || strings.Count(err.Error(), "acemq:") != 1 || !strings.HasPrefix(err.Error(), `acemq: cannot consume from "ghost": `) {
		t.Fatalf("got %v", err)
	}
}

func TestConnCountsAndPullsThroughItsTransport(t *testing.T) {
	conn := ordersConn(t)
	send(t, conn, "orders", Order{ID: "p"})
	if n, err := conn.MessageCount(context.Background(), "orders"); n != 1 || err != nil {
		t.Fatalf("count %d, %v", n, err)
	}
	d, ok, err := conn.Pull(context.Background(), "orders")
	if !ok || err != nil || string(d.Body) != `{"id":"p","total":0}` {
		t.Fatalf("pull %q %v %v", d.Body, ok, err)
	}
	bare, _ := acemq.NewConn(struct{ driver.Transport }{conn.Transport()})
	if _, err := bare.MessageCount(context.Background(), "orders"); err == nil {
		t.Fatal("a transport without the seam counted")
	}
}
