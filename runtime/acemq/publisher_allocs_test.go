package acemq_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
)

// staticCodec encodes every payload as the same bytes, allocating nothing:
// the stand-in for a generated codec appending into a reused buffer, so that
// what is counted is the publish path's own allocations.
type staticCodec struct{ body []byte }

func (c staticCodec) ContentType() string               { return "application/json" }
func (c staticCodec) Encode(any) ([]byte, error)        { return c.body, nil }
func (c staticCodec) Decode(_ []byte, _ any) error      { return nil }
func (c staticCodec) CanDecode(contentType string) bool { return contentType == "application/json" }

// sendBudget is the most allocations one Send on memory:// may make with a
// codec that allocates nothing (issue 24: at most 4).
const sendBudget = 4

// staticPublisher is a publisher of Order to amq.fanout with no queue bound
// on a connection encoding with staticCodec.
func staticPublisher(tb testing.TB, name string) *acemq.Publisher[Order] {
	conn, err := acemq.Connect(context.Background(), fmt.Sprintf("memory://%s-%p", name, tb),
		acemq.WithCodec(staticCodec{body: []byte(`{"id":"o","total":1}`)}))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = conn.Close() })
	return acemq.NewPublisher[Order](conn, "amq.fanout", "orders")
}

// TestSendOnMemoryAllocatesAtMostFour holds issue 24's publish budget: a
// Send whose codec does not allocate makes at most sendBudget allocations.
func TestSendOnMemoryAllocatesAtMostFour(t *testing.T) {
	budget := float64(sendBudget)
	if raceEnabled {
		// the race detector makes sync.Pool drop a quarter of what it is
		// given, on purpose: those Sends build a fresh message (the message
		// and its two maps), so the budget holds on average with them
		budget += 3
	}
	pub := staticPublisher(t, "allocs-send")
	ctx := context.Background()
	allocs := testing.AllocsPerRun(200, func() {
		if err := pub.Send(ctx, Order{ID: "o", Total: 1}); err != nil {
			t.Fatal(err)
		}
	})
	t.Logf("%.2f allocations per Send (budget %.0f)", allocs, budget)
	if allocs > budget {
		t.Fatalf("Send on memory:// made %.1f allocations, want at most %.0f", allocs, budget)
	}
}

// BenchmarkSendStaticCodecOnMemory is Send on memory:// with a codec that
// allocates nothing: the publish path's own cost (-benchmem).
func BenchmarkSendStaticCodecOnMemory(b *testing.B) {
	pub := staticPublisher(b, "bench-send-static")
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if err := pub.Send(ctx, Order{ID: "o", Total: 1}); err != nil {
			b.Fatal(err)
		}
	}
}

// pullHeaders takes the next message of queue and returns its headers.
func pullHeaders(t *testing.T, tr driver.Transport, queue string) map[string]any {
	t.Helper()
	d, ok, err := tr.(driver.Puller).Pull(context.Background(), queue)
	if err != nil || !ok {
		t.Fatalf("pull %s: ok %v, %v", queue, ok, err)
	}
	return d.Headers
}

// A Send on memory:// recycles its message (envelope, Headers map, wire
// table): the next message must carry none of the previous one's headers.
func TestARecycledSendCarriesNoHeaderOfThePreviousMessage(t *testing.T) {
	conn := ordersConn(t)
	pub := acemq.NewPublisher[Order](conn, "", "orders")
	ctx := context.Background()
	first, err := pub.SendResult(ctx, Order{ID: "1"}, acemq.Header("tenant", "a"), acemq.CausationID("c-1"))
	if err != nil {
		t.Fatal(err)
	}
	second, err := pub.SendResult(ctx, Order{ID: "2"})
	if err != nil {
		t.Fatal(err)
	}
	h1, h2 := pullHeaders(t, conn.Transport(), "orders"), pullHeaders(t, conn.Transport(), "orders")
	if h1[semconv.HeaderID] != first.MessageID || h1["tenant"] != "a" || h1[semconv.HeaderCausation] != "c-1" {
		t.Errorf("first message's headers = %v", h1)
	}
	_, tenant := h2["tenant"]
	_, causation := h2[semconv.HeaderCausation]
	if h2[semconv.HeaderID] != second.MessageID || tenant || causation {
		t.Errorf("second message's headers = %v, want its own id %s and no tenant or causation", h2, second.MessageID)
	}
}

// keepingTransport keeps every message it is given, as a recorder does; it
// is not a driver.HeadersReleaser.
type keepingTransport struct {
	driver.Transport
	kept []driver.Outbound
}

func (k *keepingTransport) Publish(ctx context.Context, exchange, key string, msg driver.Outbound) (acemq.PublishResult, error) {
	k.kept = append(k.kept, msg)
	return k.Transport.Publish(ctx, exchange, key, msg)
}

// A transport that does not promise to release the headers table
// (driver.HeadersReleaser) keeps each message's own: the next Send does
// not write into it.
func TestSendLeavesTheTableOfATransportThatKeepsItUntouched(t *testing.T) {
	keeping := &keepingTransport{Transport: connect(t).Transport()}
	conn, err := acemq.NewConn(keeping)
	if err != nil {
		t.Fatal(err)
	}
	pub := acemq.NewPublisher[Order](conn, "amq.fanout", "orders")
	checkKeptTablesAreTheirOwn(t, pub, func() []driver.Outbound { return keeping.kept })
}

// checkKeptTablesAreTheirOwn sends three messages through pub and checks
// that every message kept (as kept returns them) still has its own id.
func checkKeptTablesAreTheirOwn(t *testing.T, pub *acemq.Publisher[Order], kept func() []driver.Outbound) {
	t.Helper()
	var ids []string
	for range 3 {
		res, err := pub.SendResult(context.Background(), Order{ID: "o"})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, res.MessageID)
	}
	msgs := kept()
	if len(msgs) != len(ids) {
		t.Fatalf("kept %d messages, want %d", len(msgs), len(ids))
	}
	for i, msg := range msgs {
		if msg.Headers[semconv.HeaderID] != ids[i] {
			t.Errorf("message %d kept headers %v, want its own id %s", i, msg.Headers, ids[i])
		}
	}
}

// The broker keeps nothing of a published headers map: changing it after
// Publish returns changes no stored message.
func TestTheMemoryBrokerKeepsNothingOfAPublishedHeadersMap(t *testing.T) {
	conn := ordersConn(t)
	headers := map[string]any{"tenant": "a", "n": int64(1)}
	msg := driver.Outbound{Body: []byte("{}"), MessageID: "m-1", Headers: headers}
	if _, err := conn.Transport().Publish(context.Background(), "", "orders", msg); err != nil {
		t.Fatal(err)
	}
	headers["tenant"], headers["n"] = "b", int64(2)
	if h := pullHeaders(t, conn.Transport(), "orders"); h["tenant"] != "a" || h["n"] != int64(1) {
		t.Errorf("stored headers = %v, want tenant a and n 1 as published", h)
	}
}

// BenchmarkSendAsyncStaticCodecOnMemory is SendAsync and its Wait on
// memory:// with a codec that allocates nothing.
func BenchmarkSendAsyncStaticCodecOnMemory(b *testing.B) {
	benchSendAsync(b, staticPublisher(b, "bench-sendasync-static"))
}

// BenchmarkSendAllStaticCodecOnMemory is SendAll of benchBatch on memory://
// with a codec that allocates nothing; per message.
func BenchmarkSendAllStaticCodecOnMemory(b *testing.B) {
	benchSendAll(b, staticPublisher(b, "bench-sendall-static"))
}

// SendAll and SendAsync recycle their messages once settled too: a message
// sent after them carries none of their headers, and each of theirs its own.
func TestRecycledSendAllAndSendAsyncMessagesCarryOnlyTheirOwnHeaders(t *testing.T) {
	conn := ordersConn(t)
	pub := acemq.NewPublisher[Order](conn, "", "orders")
	ctx := context.Background()
	results, err := pub.SendAll(ctx, make([]Order, 3), acemq.Header("tenant", "a"))
	if err != nil {
		t.Fatal(err)
	}
	pending, err := pub.SendAsync(ctx, Order{}, acemq.Header("region", "eu"))
	if err != nil {
		t.Fatal(err)
	}
	async, err := pending.Wait(ctx)
	if err != nil {
		t.Fatal(err)
	}
	last, err := pub.SendResult(ctx, Order{})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		id, header string
	}{{results[0].MessageID, "tenant"}, {results[1].MessageID, "tenant"}, {results[2].MessageID, "tenant"},
		{async.MessageID, "region"}, {last.MessageID, ""}}
	for i, w := range want {
		h := pullHeaders(t, conn.Transport(), "orders")
		_, tenant := h["tenant"]
		_, region := h["region"]
		if h[semconv.HeaderID] != w.id || tenant != (w.header == "tenant") || region != (w.header == "region") {
			t.Errorf("message %d: headers %v, want id %s and only the %q application header", i, h, w.id, w.header)
		}
	}
}

// A Through publisher hands its messages to a func that may keep them: it
// does not recycle them, whatever its connection's transport does.
func TestAThroughPublisherLeavesWhatItsSendFuncKeepsUntouched(t *testing.T) {
	conn := connect(t)
	var kept []driver.Outbound
	pub := acemq.Through(acemq.NewPublisher[Order](conn, "amq.fanout", "orders"),
		func(ctx context.Context, exchange, key string, msg driver.Outbound) (acemq.PublishResult, error) {
			kept = append(kept, msg)
			return conn.Transport().Publish(ctx, exchange, key, msg)
		})
	checkKeptTablesAreTheirOwn(t, pub, func() []driver.Outbound { return kept })
}
