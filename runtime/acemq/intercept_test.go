package acemq_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// logTo returns a publish interceptor that records name.
func logTo(log *recorder[string], name string) acemq.PublishInterceptor {
	return func(context.Context, *acemq.PublishContext) error {
		log.add(name)
		return nil
	}
}

func TestPublishInterceptorsRunInRegistrationOrderAndMayRedirect(t *testing.T) {
	var log recorder[string]
	quarantine := func(_ context.Context, c *acemq.PublishContext) error {
		log.add("quarantine")
		c.RoutingKey = "orders.review"
		c.SetHeader("x-quarantined-because", "over the limit")
		return nil
	}
	conn := connect(t, acemq.WithPublishInterceptor(logTo(&log, "first")), acemq.WithPublishInterceptor(quarantine))
	declare(t, conn, "orders.review")
	send(t, conn, "orders", Order{})
	d := awaitMessage(t, conn, "orders.review")
	if d.Headers["x-quarantined-because"] != "over the limit" {
		t.Errorf("headers %v", d.Headers)
	}
	if !slices.Equal(log.all(), []string{"first", "quarantine"}) {
		t.Errorf("order %v", log.all())
	}
}

func TestPublishInterceptorRefusalIsReturnedUnwrappedAndStopsTheChain(t *testing.T) {
	tooBig := errors.New("too big to publish")
	var log recorder[string]
	refuse := func(context.Context, *acemq.PublishContext) error { return tooBig }
	conn := connect(t, acemq.WithPublishInterceptor(refuse), acemq.WithPublishInterceptor(logTo(&log, "after")))
	declare(t, conn, "orders")
	err := acemq.NewPublisher[Order](conn, "", "orders").Send(context.Background(), Order{})
	if err != tooBig {
		t.Fatalf("got %v, want the interceptor's own error", err)
	}
	if log.len() != 0 || count(t, conn, "orders") != 0 {
		t.Fatal("a later interceptor ran or the message went out")
	}
}

func TestSetHeaderWithAReservedNameFailsThePublish(t *testing.T) {
	stamp := func(_ context.Context, c *acemq.PublishContext) error {
		//acemqvet:ignore reservedheader the test proves the publish fails
		c.SetHeader("x-acemq-id", "mine")
		return nil
	}
	conn := connect(t, acemq.WithPublishInterceptor(stamp))
	declare(t, conn, "orders")
	err := acemq.NewPublisher[Order](conn, "", "orders").Send(context.Background(), Order{})
	if err == nil || err.Error() != acemq.ReservedHeaderError("x-acemq-id").Error() {
		t.Fatalf("got %v", err)
	}
	if count(t, conn, "orders") != 0 {
		t.Fatal("the message went out")
	}
}

func TestPayloadReplacedWithTheWrongTypeFailsNamingBothTypes(t *testing.T) {
	replace := func(_ context.Context, c *acemq.PublishContext) error {
		c.Payload = map[string]any{"id": "x"}
		return nil
	}
	conn := connect(t, acemq.WithPublishInterceptor(replace))
	err := acemq.NewPublisher[Order](conn, "", "orders").Send(context.Background(), Order{})
	if err == nil || !strings.Contains(err.Error(), "acemq_test.Order") || !strings.Contains(err.Error(), "map[string]interface {}") {
		t.Fatalf("got %v", err)
	}
}

func TestPayloadReplacedWithTheSameTypeIsWhatIsEncoded(t *testing.T) {
	redact := func(_ context.Context, c *acemq.PublishContext) error {
		c.Payload = Order{ID: "redacted"}
		return nil
	}
	conn := connect(t, acemq.WithPublishInterceptor(redact))
	declare(t, conn, "orders")
	send(t, conn, "orders", Order{ID: "secret"})
	if d := awaitMessage(t, conn, "orders"); string(d.Body) != `{"id":"redacted","total":0}` {
		t.Fatalf("body %s", d.Body)
	}
}

func TestPublishInterceptorPanicIsReturnedAsAnError(t *testing.T) {
	//acemqvet:ignore interceptorpanic the test proves the runtime recovers it
	boom := func(context.Context, *acemq.PublishContext) error { panic("boom") }
	conn := connect(t, acemq.WithPublishInterceptor(boom))
	err := acemq.NewPublisher[Order](conn, "", "orders").Send(context.Background(), Order{})
	if err == nil || !strings.Contains(err.Error(), "panicked: boom") {
		t.Fatalf("got %v", err)
	}
}

// hookTo returns a publish interceptor that leaves a hook recording name and
// what it was told.
func hookTo(log *recorder[string], name string) acemq.PublishInterceptor {
	return func(_ context.Context, c *acemq.PublishContext) error {
		c.OnOutcome(func(_ context.Context, o acemq.PublishOutcome) {
			status := "confirmed"
			if o.Err != nil {
				status = o.Err.Error()
			} else if !o.Result.Confirmed {
				status = "unconfirmed"
			}
			log.add(name + ":" + status + ":" + o.RoutingKey)
		})
		return nil
	}
}

func TestPublishOutcomeHooksRunLastFirstBeforeSendReturns(t *testing.T) {
	var log recorder[string]
	conn := connect(t, acemq.WithPublishInterceptor(hookTo(&log, "a")), acemq.WithPublishInterceptor(hookTo(&log, "b")))
	declare(t, conn, "orders")
	send(t, conn, "orders", Order{})
	if want := []string{"b:confirmed:orders", "a:confirmed:orders"}; !slices.Equal(log.all(), want) {
		t.Fatalf("hooks %v, want %v", log.all(), want)
	}
}

func TestPublishOutcomeHooksRunWhenALaterInterceptorRefused(t *testing.T) {
	var log recorder[string]
	refuse := func(context.Context, *acemq.PublishContext) error { return errors.New("no") }
	conn := connect(t, acemq.WithPublishInterceptor(hookTo(&log, "a")), acemq.WithPublishInterceptor(refuse))
	_ = acemq.NewPublisher[Order](conn, "", "orders").Send(context.Background(), Order{})
	if want := []string{"a:no:orders"}; !slices.Equal(log.all(), want) {
		t.Fatalf("hooks %v, want %v", log.all(), want)
	}
}

func TestPanickingOutcomeHookIsRecoveredAndLogged(t *testing.T) {
	var buf bytes.Buffer
	var lockedBuf = &syncWriter{w: &buf}
	var log recorder[string]
	panicky := func(_ context.Context, c *acemq.PublishContext) error {
		c.OnOutcome(func(context.Context, acemq.PublishOutcome) { panic("hook broke") })
		return nil
	}
	conn := connect(t, acemq.WithLogger(slog.New(slog.NewTextHandler(lockedBuf, nil))),
		acemq.WithPublishInterceptor(hookTo(&log, "a")), acemq.WithPublishInterceptor(panicky))
	declare(t, conn, "orders")
	send(t, conn, "orders", Order{})
	if log.len() != 1 || !strings.Contains(lockedBuf.String(), "hook broke") {
		t.Fatalf("hooks %v, log %q", log.all(), lockedBuf.String())
	}
}

func TestConsumeInterceptorsRunInOrderAndEnvelopeEditsReachTheHandler(t *testing.T) {
	var log recorder[string]
	stamp := func(name string) acemq.ConsumeInterceptor {
		return func(_ context.Context, c *acemq.ConsumeContext) error {
			log.add(name)
			c.Envelope.Headers["x-seen-by"] = name
			return nil
		}
	}
	conn := connect(t, acemq.WithConsumeInterceptor(stamp("first")), acemq.WithConsumeInterceptor(stamp("second")))
	declare(t, conn, "orders")
	got := make(chan acemq.Message[Order], 1)
	consume(t, conn, "orders", func(_ context.Context, m acemq.Message[Order]) acemq.Ack {
		got <- m
		return acemq.Accept()
	})
	send(t, conn, "orders", Order{})
	if m := <-got; m.Envelope.Headers["x-seen-by"] != "second" || !slices.Equal(log.all(), []string{"first", "second"}) {
		t.Fatalf("headers %v, order %v", m.Envelope.Headers, log.all())
	}
}

func TestConsumeInterceptorRefusalDeadLettersWithReason(t *testing.T) {
	refuse := func(_ context.Context, c *acemq.ConsumeContext) error {
		return errors.New(`tenant "beta" is not served by this process`)
	}
	conn := connect(t, acemq.WithConsumeInterceptor(refuse))
	declare(t, conn, "orders")
	var calls recorder[int]
	consume(t, conn, "orders", func(context.Context, acemq.Message[Order]) acemq.Ack {
		calls.add(1)
		return acemq.Accept()
	})
	send(t, conn, "orders", Order{})
	want := `an interceptor refused it: tenant "beta" is not served by this process`
	if got := reasonOn(awaitMessage(t, conn, "orders.dlq")); got != want || calls.len() != 0 {
		t.Fatalf("reason %q, handler calls %d", got, calls.len())
	}
}

func TestConsumeInterceptorPanicDeadLettersWithThePanicAsReason(t *testing.T) {
	//acemqvet:ignore interceptorpanic the test proves the runtime recovers it
	boom := func(context.Context, *acemq.ConsumeContext) error { panic("interceptor exploded") }
	conn := connect(t, acemq.WithConsumeInterceptor(boom))
	declare(t, conn, "orders")
	consume(t, conn, "orders", func(context.Context, acemq.Message[Order]) acemq.Ack { return acemq.Accept() })
	send(t, conn, "orders", Order{})
	got := reasonOn(awaitMessage(t, conn, "orders.dlq"))
	if !strings.HasPrefix(got, "an interceptor refused it: ") || !strings.Contains(got, "interceptor exploded") {
		t.Fatalf("reason %q", got)
	}
}

func TestConsumeInterceptorBodyRewriteIsWhatGetsDecoded(t *testing.T) {
	unwrap := func(_ context.Context, c *acemq.ConsumeContext) error {
		if c.ContentType != "application/x-base64" {
			return nil
		}
		body, err := base64.StdEncoding.DecodeString(string(c.Body))
		c.Body, c.ContentType = body, "application/json"
		return err
	}
	conn := connect(t, acemq.WithConsumeInterceptor(unwrap))
	declare(t, conn, "orders")
	got := make(chan acemq.Message[Order], 1)
	consume(t, conn, "orders", func(_ context.Context, m acemq.Message[Order]) acemq.Ack {
		got <- m
		return acemq.Accept()
	})
	body := base64.StdEncoding.EncodeToString([]byte(`{"id":"wrapped","total":7}`))
	_, _ = conn.PublishRaw(context.Background(), "", "orders", driver.Outbound{Body: []byte(body), ContentType: "application/x-base64"})
	if m := <-got; m.Payload != (Order{ID: "wrapped", Total: 7}) || m.ContentType != "application/json" {
		t.Fatalf("got %+v", m)
	}
}

func TestConsumeOutcomeHooksRunLastFirstBeforeTheAck(t *testing.T) {
	var log recorder[string]
	hook := func(name string) acemq.ConsumeInterceptor {
		return func(_ context.Context, c *acemq.ConsumeContext) error {
			c.OnOutcome(func(_ context.Context, s acemq.Settlement) { log.add(name + ":" + s.Outcome) })
			return nil
		}
	}
	base := connect(t)
	conn, err := acemq.NewConn(ackSpy{Transport: base.Transport(), log: &log},
		acemq.WithConsumeInterceptor(hook("a")), acemq.WithConsumeInterceptor(hook("b")))
	if err != nil {
		t.Fatal(err)
	}
	declare(t, conn, "orders")
	consume(t, conn, "orders", func(context.Context, acemq.Message[Order]) acemq.Ack { return acemq.Accept() })
	send(t, conn, "orders", Order{})
	waitFor(t, "the ack", func() bool { return log.len() == 3 })
	if want := []string{"b:acked", "a:acked", "ack"}; !slices.Equal(log.all(), want) {
		t.Fatalf("got %v, want %v", log.all(), want)
	}
}

func TestConsumeOutcomeHooksRunWhenALaterInterceptorRefused(t *testing.T) {
	var log recorder[string]
	hook := func(_ context.Context, c *acemq.ConsumeContext) error {
		c.OnOutcome(func(_ context.Context, s acemq.Settlement) { log.add(s.Outcome + ":" + s.Reason) })
		return nil
	}
	refuse := func(context.Context, *acemq.ConsumeContext) error { return errors.New("no") }
	conn := connect(t, acemq.WithConsumeInterceptor(hook), acemq.WithConsumeInterceptor(refuse))
	declare(t, conn, "orders")
	consume(t, conn, "orders", func(context.Context, acemq.Message[Order]) acemq.Ack { return acemq.Accept() })
	send(t, conn, "orders", Order{})
	awaitMessage(t, conn, "orders.dlq")
	waitFor(t, "the hook", func() bool { return log.len() == 1 })
	if got := log.all()[0]; got != "dead_lettered:an interceptor refused it: no" {
		t.Fatalf("hook saw %q", got)
	}
}

// ackSpy is a transport that records every ack in log.
type ackSpy struct {
	driver.Transport
	log *recorder[string]
}

func (s ackSpy) Consume(ctx context.Context, queue string, spec driver.ConsumeSpec, deliver func(driver.Delivery)) (driver.Subscription, error) {
	return s.Transport.Consume(ctx, queue, spec, func(d driver.Delivery) {
		d.Acker = spyAcker{Acknowledger: d.Acker, log: s.log}
		deliver(d)
	})
}

type spyAcker struct {
	driver.Acknowledger
	log *recorder[string]
}

func (a spyAcker) Ack() error {
	a.log.add("ack")
	return a.Acknowledger.Ack()
}
