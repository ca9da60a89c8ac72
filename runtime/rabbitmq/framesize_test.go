package rabbitmq

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
	"github.com/acemq/acemq-gen/runtime/internal/amqpvalue"
)

// TestContentHeaderSizeIsWhatAmqp091Writes compares contentHeaderSize with
// the frames amqp091-go writes for a few publishings (through a pipe).
func TestContentHeaderSizeIsWhatAmqp091Writes(t *testing.T) {
	pubs := []amqp.Publishing{
		{},
		{ContentType: "application/json", MessageId: "m-1", DeliveryMode: 2, Priority: 3, Timestamp: time.Unix(5, 0),
			Headers: amqp.Table{"s": "x", "i": 1, "l": int64(2), "t": true, "n": nil, "f": 1.5, "b": []byte("ab"),
				"a": []any{"x", int32(1)}, "m": amqp.Table{"k": int16(1)}, "d": amqp.Decimal{Scale: 1, Value: 2}, "ts": time.Unix(9, 0)}},
		{CorrelationId: "c", ReplyTo: "r", Expiration: "10", Type: "t", UserId: "guest", AppId: "a", ContentEncoding: "gzip"},
	}
	for i, p := range pubs {
		if got, want := contentHeaderSize(p), writtenHeaderSize(t, p); got != want {
			t.Errorf("publishing %d: contentHeaderSize = %d, amqp091-go wrote %d", i, got, want)
		}
	}
}

func TestPublishOverFrameMaxIsRefusedBeforeWriting(t *testing.T) {
	c := newCleaner(t)
	var lost atomic.Int64
	tr := openTransport(t, OnRecovery(func(ev RecoveryEvent) {
		if ev.Kind == RecoveryLost {
			lost.Add(1)
		}
	}))
	q := c.queue(unique("over-frame-max"))
	if err := tr.DeclareQueue(ctxT(t), q, driver.QueueSpec{}); err != nil {
		t.Fatal(err)
	}
	msg := driver.Outbound{MessageID: "big", Body: []byte("x"), Headers: map[string]any{"big": strings.Repeat("b", 200_000)}}
	done := make(chan error, 1)
	start := time.Now()
	go func() { _, err := tr.Publish(context.Background(), "", q, msg); done <- err }()
	var err error
	select {
	case err = <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("a publish with a header over frame_max and context.Background() did not return within 5 s")
	}
	var tooLarge *acemq.FrameTooLargeError
	if !errors.Is(err, acemq.ErrBrokerRefused) || !errors.As(err, &tooLarge) || tooLarge.Limit != tr.FrameMax() ||
		tooLarge.Size <= 200_000 || !strings.Contains(err.Error(), "frame_max") || time.Since(start) > time.Second {
		t.Fatalf("publish over frame_max = %v after %v, want at once an ErrBrokerRefused naming the size and frame_max %d",
			err, time.Since(start), tr.FrameMax())
	}
	if errors.Is(err, acemq.ErrOutcomeUnknown) || strings.Contains(err.Error(), "may or may not") || strings.Contains(err.Error(), "recover") {
		t.Errorf("err = %v, want a certain refusal", err)
	}
	if _, err := tr.Publish(ctxT(t), "", q, driver.Outbound{MessageID: "small", Body: []byte("x")}); err != nil || lost.Load() != 0 {
		t.Fatalf("the next publish = %v with %d reconnects, want it confirmed on the same connection", err, lost.Load())
	}
}

// recorder records what is written to a connection.
type recorder struct {
	net.Conn
	mu  sync.Mutex
	out bytes.Buffer
}

func (r *recorder) Write(p []byte) (int, error) {
	r.mu.Lock()
	r.out.Write(p)
	r.mu.Unlock()
	return r.Conn.Write(p)
}

// writtenHeaderSize publishes p to the test broker with amqp091-go and
// returns the size of the content header frame it wrote.
func writtenHeaderSize(t *testing.T, p amqp.Publishing) int {
	rec := &recorder{}
	conn, err := amqp.DialConfig(brokerURL(t), amqp.Config{Dial: func(network, addr string) (net.Conn, error) {
		nc, err := net.Dial(network, addr)
		rec.Conn = nc
		return rec, err
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ch := rawChannel(t, conn)
	if err := ch.Confirm(false); err != nil {
		t.Fatal(err)
	}
	dc, err := ch.PublishWithDeferredConfirm("amq.fanout", "", false, false, p)
	if err != nil || !dc.Wait() {
		t.Fatalf("publish: %v", err)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	stream := rec.out.Bytes()[8:] // after the protocol header
	for len(stream) >= frameHeaderSize {
		n := frameHeaderSize + int(binary.BigEndian.Uint32(stream[3:7])) + frameEndSize
		if stream[0] == frameTypeHeader {
			return n
		}
		stream = stream[n:]
	}
	t.Fatal("amqp091-go wrote no content header")
	return 0
}

// TestTheEngineSizesHeadersAsTheTransportWrites: the sizes the engine trims
// a set-aside by (amqpvalue.TableSize, on headers as a consumer reads them)
// are those of the frame the transport writes.
func TestTheEngineSizesHeadersAsTheTransportWrites(t *testing.T) {
	received := fromTable(amqp.Table{"s": "text", "i": int32(1), "l": int64(2), "b": []byte("ab"), "t": true,
		"f": 1.5, "n": nil, "ts": time.Unix(9, 0), "a": []any{"x", int32(1)}, "m": amqp.Table{"k": int16(3)}})
	sent, err := toTable(received)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := amqpvalue.TableSize(received), tableSize(sent); got != want {
		t.Fatalf("amqpvalue.TableSize = %d, the transport writes %d", got, want)
	}
}
