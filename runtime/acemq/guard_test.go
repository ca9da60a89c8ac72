package acemq_test

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
	"github.com/acemq/acemq-gen/runtime/acemqimpl"
)

// panickingCodec is JSON that panics with "boom" in the method named by
// in ("Encode", "Decode", "CanDecode" or "ContentType"), counting decodes.
type panickingCodec struct {
	acemq.JSONCodec
	in      string
	decodes *atomic.Int32
}

func (c panickingCodec) ContentType() string {
	if c.in == "ContentType" {
		//acemqvet:ignore interceptorpanic the test proves the runtime recovers it
		panic("boom")
	}
	return c.JSONCodec.ContentType()
}

func (c panickingCodec) Encode(payload any) ([]byte, error) {
	if c.in == "Encode" {
		//acemqvet:ignore interceptorpanic the test proves the runtime recovers it
		panic("boom")
	}
	return c.JSONCodec.Encode(payload)
}

func (c panickingCodec) Decode(body []byte, dst any) error {
	if c.decodes != nil {
		c.decodes.Add(1)
	}
	if c.in == "Decode" {
		//acemqvet:ignore interceptorpanic the test proves the runtime recovers it
		panic("boom")
	}
	return c.JSONCodec.Decode(body, dst)
}

func (c panickingCodec) CanDecode(contentType string) bool {
	if c.in == "CanDecode" {
		//acemqvet:ignore interceptorpanic the test proves the runtime recovers it
		panic("boom")
	}
	return c.JSONCodec.CanDecode(contentType)
}

const encodePanic = "acemq: the application/json codec panicked: boom"

func TestPanickingCodecEncodeIsAnError(t *testing.T) {
	conn := connect(t, acemq.WithCodec(panickingCodec{in: "Encode"}))
	declare(t, conn, "orders")
	p := acemq.NewPublisher[Order](conn, "", "orders")
	if err := p.Send(context.Background(), Order{ID: "1"}); err == nil || err.Error() != encodePanic {
		t.Fatalf("Send: %v, want %q", err, encodePanic)
	}
	if n := count(t, conn, "orders"); n != 0 {
		t.Fatalf("%d messages published, want none", n)
	}
}

func TestPanickingCodecEncodeIsAnErrorForEveryMessageOfSendAll(t *testing.T) {
	conn := connect(t, acemq.WithCodec(panickingCodec{in: "Encode"}))
	declare(t, conn, "orders")
	_, err := acemq.NewPublisher[Order](conn, "", "orders").SendAll(context.Background(), []Order{{ID: "1"}, {ID: "2"}, {ID: "3"}})
	var batch *acemq.BatchPublishFailedError
	if !errors.As(err, &batch) || batch.Failed != 3 {
		t.Fatalf("SendAll: %v, want all three failed", err)
	}
	for i, e := range batch.Errors {
		if e.Error() != encodePanic {
			t.Errorf("message %d: %v, want %q", i, e, encodePanic)
		}
	}
}

func TestPanickingCodecEncodeIsAnErrorThroughAReplyChannel(t *testing.T) {
	conn := connect(t)
	var sent atomic.Int32
	p := acemq.Through(acemq.NewPublisher(conn, "", "replies", acemq.PublishWith[Order](panickingCodec{in: "Encode"})),
		func(context.Context, string, string, driver.Outbound) (acemq.PublishResult, error) {
			sent.Add(1)
			return acemq.PublishResult{}, nil
		})
	if err := p.Send(context.Background(), Order{}); err == nil || err.Error() != encodePanic || sent.Load() != 0 {
		t.Fatalf("Send: %v (sent %d), want %q and nothing sent", err, sent.Load(), encodePanic)
	}
}

func TestPanickingCodecContentTypeIsAnError(t *testing.T) {
	conn := connect(t, acemq.WithCodec(panickingCodec{in: "ContentType"}))
	declare(t, conn, "orders")
	err := acemq.NewPublisher[Order](conn, "", "orders").Send(context.Background(), Order{})
	if want := "acemq: the codec's ContentType panicked: boom"; err == nil || err.Error() != want {
		t.Fatalf("Send: %v, want %q", err, want)
	}
}

func TestPanickingCodecEncodeStillRunsTheOutcomeHooks(t *testing.T) {
	var outcome atomic.Value
	hook := func(_ context.Context, c *acemq.PublishContext) error {
		c.OnOutcome(func(_ context.Context, o acemq.PublishOutcome) { outcome.Store(o.Err.Error()) })
		return nil
	}
	conn := connect(t, acemq.WithCodec(panickingCodec{in: "Encode"}), acemq.WithPublishInterceptor(hook))
	declare(t, conn, "orders")
	_ = acemq.NewPublisher[Order](conn, "", "orders").Send(context.Background(), Order{})
	if got, _ := outcome.Load().(string); got != encodePanic {
		t.Fatalf("the outcome hook saw %q, want %q", got, encodePanic)
	}
}

func TestPanickingCodecBuilderIsAnError(t *testing.T) {
	conn := connect(t)
	build := func(*acemq.Conn) (acemq.Codec, error) { panic("no registry") }
	err := acemq.NewPublisher(conn, "", "orders", acemqimpl.PublishWithFunc[Order](build)).Send(context.Background(), Order{})
	const want = "acemq: the codec builder panicked: no registry"
	if err == nil || err.Error() != want {
		t.Fatalf("Send: %v, want %q", err, want)
	}
	if _, err := acemq.Consume(context.Background(), conn, "orders", func(context.Context, acemq.Message[Order]) acemq.Ack {
		return acemq.Accept()
	}, acemqimpl.ConsumeWithFunc(conn, build)); err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("Consume: %v, want %q", err, want)
	}
}

// awaitParkedPanic sends a good JSON order to a consumer decoding with a
// codec that panics in `in`, and checks it is parked once, never retried,
// without reaching the handler.
func awaitParkedPanic(t *testing.T, in string) {
	conn := ordersConn(t)
	decodes := &atomic.Int32{}
	var handled recorder[string]
	consume(t, conn, "orders", func(_ context.Context, m acemq.Message[Order]) acemq.Ack {
		handled.add(m.Payload.ID)
		return acemq.Accept()
	}, acemq.ConsumeWith(panickingCodec{in: in, decodes: decodes}), acemq.RetryWith(acemq.FixedRetry(5, time.Millisecond)))
	send(t, conn, "orders", Order{ID: "1"})
	d := awaitMessage(t, conn, acemq.ParkedQueue("orders"))
	env := acemq.EnvelopeFromWire(d.Headers, d.RoutingKey, d.MessageID)
	if want := "could not be decoded: the codec panicked: boom"; env.Error != want {
		t.Errorf("parked with reason %q, want %q", env.Error, want)
	}
	if env.Attempt != 1 || handled.len() != 0 {
		t.Errorf("parked at attempt %d after %d handler calls, want attempt 1 (never retried) and none", env.Attempt, handled.len())
	}
	if n := decodes.Load(); in == "Decode" && n != 1 {
		t.Errorf("decoded %d times, want once", n)
	}
	if n := count(t, conn, acemq.DeadLetterQueue("orders")); n != 0 {
		t.Errorf("%d dead-lettered, want none", n)
	}
}

func TestPanickingCodecDecodeParksUndecodable(t *testing.T) {
	awaitParkedPanic(t, "Decode")
}

func TestPanickingCodecCanDecodeParksUndecodable(t *testing.T) {
	awaitParkedPanic(t, "CanDecode")
}

func TestPanickingCodecDecodeInACompositeParksUndecodable(t *testing.T) {
	conn := ordersConn(t)
	consume(t, conn, "orders", func(context.Context, acemq.Message[Order]) acemq.Ack { return acemq.Accept() },
		acemq.ConsumeWith(acemq.NewCompositeCodec(panickingCodec{in: "Decode"}, acemq.BytesCodec{})))
	send(t, conn, "orders", Order{ID: "1"})
	if got, want := reasonOn(awaitMessage(t, conn, acemq.ParkedQueue("orders"))), "could not be decoded: the codec panicked: boom"; got != want {
		t.Fatalf("reason %q, want %q", got, want)
	}
}

func TestPanickingCodecDecodeIsAFatalErrorOfDecodeFor(t *testing.T) {
	var o Order
	err := acemq.DecodeFor(panickingCodec{in: "Decode"}, "application/json", []byte(`{}`), &o)
	if err == nil || err.Error() != "the codec panicked: boom" || !acemq.IsFatal(err) {
		t.Fatalf("DecodeFor: %v (fatal %v), want the fatal error %q", err, acemq.IsFatal(err), "the codec panicked: boom")
	}
}

func TestPanickingCodecDecodeIsAnErrorOfPullInto(t *testing.T) {
	conn := ordersConn(t)
	send(t, conn, "orders", Order{ID: "1"})
	m, ok, err := acemq.PullInto[Order](context.Background(), conn, "orders", acemq.ConsumeWith(panickingCodec{in: "Decode"}))
	if !ok || err == nil || !acemq.IsFatal(err) || !strings.HasSuffix(err.Error(), "the codec panicked: boom") || m.Body == nil {
		t.Fatalf("PullInto: ok %v, err %v, body %q", ok, err, m.Body)
	}
}

func TestPanickingCodecPanicValueThatIsAnErrorIsWrapped(t *testing.T) {
	sentinel := errors.New("sentinel")
	var o Order
	err := acemq.DecodeFor(errorPanickingCodec{sentinel}, "application/json", []byte(`{}`), &o)
	if !errors.Is(err, sentinel) {
		t.Fatalf("DecodeFor: %v, want it to wrap the panic's error", err)
	}
}

// errorPanickingCodec panics in Decode with an error value.
type errorPanickingCodec struct{ err error }

func (errorPanickingCodec) ContentType() string        { return "application/json" }
func (errorPanickingCodec) Encode(any) ([]byte, error) { return nil, nil }
func (c errorPanickingCodec) Decode([]byte, any) error { panic(c.err) } //acemqvet:ignore interceptorpanic the test proves the runtime recovers it
func (errorPanickingCodec) CanDecode(ct string) bool   { return true }

func TestPanickingConsumeOutcomeHookIsRecoveredAndTheMessageSettles(t *testing.T) {
	panicky := func(_ context.Context, c *acemq.ConsumeContext) error {
		c.OnOutcome(func(context.Context, acemq.Settlement) { panic("hook broke") })
		return nil
	}
	conn := connect(t, acemq.WithConsumeInterceptor(panicky))
	declare(t, conn, "orders")
	var handled recorder[string]
	consume(t, conn, "orders", func(_ context.Context, m acemq.Message[Order]) acemq.Ack {
		handled.add(m.Payload.ID)
		return acemq.Accept()
	})
	send(t, conn, "orders", Order{ID: "1"})
	send(t, conn, "orders", Order{ID: "2"})
	waitFor(t, "both handled", func() bool { return slices.Equal(handled.all(), []string{"1", "2"}) })
	waitFor(t, "both settled", func() bool { return count(t, conn, "orders") == 0 })
}

func TestPanickingHealthCheckNameIsNamedByItsPosition(t *testing.T) {
	r := acemq.AggregateHealth(context.Background(), namePanicCheck{})
	part, ok := r.Parts["check 1"].(acemq.HealthReport)
	if !ok || part.Status != acemq.HealthDown || part.Detail != "the check panicked: boom" {
		t.Fatalf("parts %+v, want check 1 down with the panic", r.Parts)
	}
}

// namePanicCheck panics in both Name and Check.
type namePanicCheck struct{}

func (namePanicCheck) Name() string                             { panic("no name") }
func (namePanicCheck) Check(context.Context) acemq.HealthReport { panic("boom") }
