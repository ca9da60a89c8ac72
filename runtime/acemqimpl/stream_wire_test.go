package acemqimpl_test

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
	"github.com/acemq/acemq-gen/runtime/acemqimpl"
	"github.com/acemq/acemq-gen/runtime/acemqtest"
)

func TestStreamMaxAgeRendersTheFamilysTable(t *testing.T) {
	for d, want := range map[time.Duration]string{
		7 * 24 * time.Hour: "7D", 24 * time.Hour: "1D", 3 * time.Hour: "3h", 90 * time.Minute: "90m",
		45 * time.Second: "45s", 1500 * time.Millisecond: "1s", 25 * time.Hour: "25h", time.Millisecond: "1s",
	} {
		if got := acemqimpl.StreamMaxAge(d); got != want {
			t.Errorf("StreamMaxAge(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestStreamDeclareWritesTypeAndRetentionArguments(t *testing.T) {
	spec := &acemqimpl.StreamSpec[rec]{Stream: "audit", MaxAge: 7 * 24 * time.Hour, MaxBytes: 1 << 30, SegmentBytes: 1 << 20}
	k := newStreamKit(t, "memory://"+acemq.NewUUID(), spec)
	// the broker holds the declaration: an equivalent one passes, another is refused
	same := acemq.NewTopology().Queue(k.spec.Stream, acemq.OfType(acemq.QueueStream), acemq.QueueArg("x-max-age", "7D"),
		acemq.QueueArg("x-max-length-bytes", int64(1<<30)), acemq.QueueArg("x-stream-max-segment-size-bytes", int64(1<<20)))
	if err := same.Apply(k.ctx, k.conn); err != nil {
		t.Errorf("the declared stream is not type stream, x-max-age 7D, 1 GiB, 1 MiB segments: %v", err)
	}
	other := acemq.NewTopology().Queue(k.spec.Stream, acemq.OfType(acemq.QueueStream), acemq.QueueArg("x-max-age", "1D"))
	if err := other.Apply(k.ctx, k.conn); err == nil {
		t.Error("redeclaring the stream with another x-max-age was accepted")
	}
}

// rawChannel opens an amqp091-go channel on the test broker.
func rawChannel(t *testing.T) *amqp.Channel {
	t.Helper()
	c, err := amqp.Dial(acemqtest.BrokerURL(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	ch, err := c.Channel()
	if err != nil {
		t.Fatal(err)
	}
	return ch
}

func TestStreamARawAMQPReaderReadsWhatAppendWrote(t *testing.T) {
	k := newStreamKit(t, acemqtest.BrokerURL(t), nil)
	k.append(0, 2)
	ch := rawChannel(t)
	if err := ch.Qos(10, 0, false); err != nil {
		t.Fatal(err)
	}
	ds, err := ch.Consume(k.spec.Stream, "", false, false, false, false, amqp.Table{"x-stream-offset": "first"})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		d := <-ds
		var r rec
		if err := json.Unmarshal(d.Body, &r); err != nil || r.N != i {
			t.Errorf("record %d: body %s (%v), want {\"n\":%d}", i, d.Body, err, i)
		}
		if d.ContentType != "application/json" || d.Headers["x-stream-offset"] != int64(i) {
			t.Errorf("record %d: content type %q, x-stream-offset %v", i, d.ContentType, d.Headers["x-stream-offset"])
		}
		if d.Headers["x-acemq-id"] != d.MessageId || d.MessageId == "" || d.Headers["x-acemq-type"] != k.spec.Stream {
			t.Errorf("record %d: family headers %v (message-id %q), want x-acemq-id = message-id and x-acemq-type = the stream", i, d.Headers, d.MessageId)
		}
		_ = d.Ack(false)
	}
}

func TestStreamReadReadsWhatARawAMQPAppenderWroteInTheFamilysEnvelope(t *testing.T) {
	k := newStreamKit(t, acemqtest.BrokerURL(t), nil)
	ch := rawChannel(t)
	seen := time.Now().Add(-time.Minute).UTC().Truncate(time.Millisecond)
	for i, id := range []string{"raw-0", "raw-1"} {
		body, _ := json.Marshal(rec{N: 10 + i})
		err := ch.Publish("", k.spec.Stream, true, false, amqp.Publishing{
			Body: body, ContentType: "application/json", MessageId: id, DeliveryMode: amqp.Persistent,
			Headers: amqp.Table{"x-acemq-id": id, "x-acemq-type": "audit.entry", "x-acemq-version": int64(1),
				"x-acemq-attempt": int64(1), "x-acemq-first-seen": seen.UnixMilli(), "x-acemq-origin": "python"},
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	envs := make(chan acemq.Envelope, 10)
	c, err := k.spec.Read(k.ctx, k.conn, acemq.StreamFirst(), func(_ context.Context, m acemq.Message[rec]) acemq.Ack {
		if m.Payload.N != 10+int(m.Stream.Offset) || !m.Stream.Timestamp.Equal(seen) {
			t.Errorf("record %d: payload %d, timestamp %v; want %d, %v", m.Stream.Offset, m.Payload.N, m.Stream.Timestamp, 10+m.Stream.Offset, seen)
		}
		envs <- m.Envelope
		return acemq.Accept()
	})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var ids []string
	for range 2 {
		select {
		case e := <-envs:
			ids = append(ids, e.ID+"/"+e.Type+"/"+e.Origin)
		case <-time.After(10 * time.Second):
			t.Fatalf("read %v, want 2 records", ids)
		}
	}
	if want := []string{"raw-0/audit.entry/python", "raw-1/audit.entry/python"}; !slices.Equal(ids, want) {
		t.Errorf("read envelopes %v, want %v", ids, want)
	}
}

// plainTransport hides every optional seam of a transport, so it reports no
// capability.
type plainTransport struct{ driver.Transport }

func init() {
	driver.RegisterTransport("plain-memory", func(ctx context.Context, url string, ext driver.Extensions) (driver.Transport, error) {
		dial, err := driver.Dialer("memory://plain")
		if err != nil {
			return nil, err
		}
		tr, err := dial(ctx, "memory://plain-"+acemq.NewUUID(), ext)
		return plainTransport{tr}, err
	})
}

func TestStreamReadOnATransportWithoutStreamsIsErrStreamsUnsupported(t *testing.T) {
	conn, err := acemq.Connect(context.Background(), "plain-memory://x")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	spec := &acemqimpl.StreamSpec[rec]{Stream: "audit", Codec: acemqimpl.Static(acemq.JSONCodec{})}
	_, err = spec.Read(context.Background(), conn, acemq.StreamFirst(), func(context.Context, acemq.Message[rec]) acemq.Ack { return acemq.Accept() })
	if !errors.Is(err, acemqimpl.ErrStreamsUnsupported) || !strings.Contains(err.Error(), `"audit"`) {
		t.Errorf("Read = %v, want ErrStreamsUnsupported naming the stream", err)
	}
}

// offsetlessTransport is memory:// delivering stream records without their
// x-stream-offset header: a transport that does not say where a record is.
type offsetlessTransport struct{ driver.Transport }

func (t offsetlessTransport) Supports(c driver.Capability) bool {
	r, ok := t.Transport.(driver.CapabilityReporter)
	return ok && r.Supports(c)
}

func (t offsetlessTransport) Consume(ctx context.Context, queue string, spec driver.ConsumeSpec, deliver func(driver.Delivery)) (driver.Subscription, error) {
	return t.Transport.Consume(ctx, queue, spec, func(d driver.Delivery) {
		d.Headers = maps.Clone(d.Headers)
		delete(d.Headers, "x-stream-offset")
		deliver(d)
	})
}

func init() {
	driver.RegisterTransport("offsetless-memory", func(ctx context.Context, url string, ext driver.Extensions) (driver.Transport, error) {
		dial, err := driver.Dialer("memory://x")
		if err != nil {
			return nil, err
		}
		tr, err := dial(ctx, "memory://"+strings.TrimPrefix(url, "offsetless-memory://"), ext)
		return offsetlessTransport{tr}, err
	})
}

func TestStreamRecordWithoutAnOffsetIsParkedNotHandledAsOffset0(t *testing.T) {
	broker := acemq.NewUUID()
	k := newStreamKit(t, "memory://"+broker, nil)
	k.append(0, 2)
	conn, err := acemq.Connect(k.ctx, "offsetless-memory://"+broker)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	handled := make(chan int64, 10)
	c, err := k.spec.Read(k.ctx, conn, acemq.StreamFirst(), func(_ context.Context, m acemq.Message[rec]) acemq.Ack {
		handled <- m.Stream.Offset
		return acemq.Accept()
	})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var parked []acemq.Envelope
	for deadline := time.Now().Add(10 * time.Second); len(parked) < 2 && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		parked = append(parked, k.pullAll(acemq.ParkedQueue(k.spec.Stream))...)
	}
	if len(parked) != 2 || !strings.Contains(parked[0].Error, "not a stream record: it has no x-stream-offset") {
		t.Errorf("parked %+v, want both records set aside with the reason", parked)
	}
	select {
	case off := <-handled:
		t.Errorf("the handler was given a record without an offset as offset %d", off)
	default:
	}
}
