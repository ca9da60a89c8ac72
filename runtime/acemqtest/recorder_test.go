package acemqtest_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/examples/bookstore/orders"
	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
	"github.com/acemq/acemq-gen/runtime/acemqtest"
)

// fakeTB records the failures a helper reports instead of failing the test.
type fakeTB struct {
	testing.TB
	fatals []string
	errors []string
}

func (f *fakeTB) Helper() {}

func (f *fakeTB) Fatalf(format string, args ...any) {
	f.fatals = append(f.fatals, fmt.Sprintf(format, args...))
}

func (f *fakeTB) Errorf(format string, args ...any) {
	f.errors = append(f.errors, fmt.Sprintf(format, args...))
}

// onlyFatal returns the single Fatalf message, failing t otherwise.
func (f *fakeTB) onlyFatal(t *testing.T) string {
	t.Helper()
	if len(f.fatals) != 1 || len(f.errors) != 0 {
		t.Fatalf("want one Fatalf, got fatals %q errors %q", f.fatals, f.errors)
	}
	return f.fatals[0]
}

// wantAll fails t unless msg contains every part.
func wantAll(t *testing.T, msg string, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(msg, p) {
			t.Errorf("message lacks %q:\n%s", p, msg)
		}
	}
}

// bookstore connects through a recorder with the orders domain's topology declared.
func bookstore(t *testing.T) (*acemq.Conn, *acemqtest.Recorder) {
	t.Helper()
	conn, rec := acemqtest.Connect(t)
	if err := orders.DeclareTopology(context.Background(), conn); err != nil {
		t.Fatal(err)
	}
	return conn, rec
}

func placed(id string) orders.OrderPlaced {
	return orders.OrderPlaced{
		OrderID:    id,
		PlacedAt:   time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC),
		Lines:      []orders.OrderLine{{Isbn: "978-0261103252", Quantity: 2, PriceCents: 1299}},
		TotalCents: 2598,
	}
}

func TestExpectPublishedSeesTheGeneratedPublishersPayloadAndTillHeader(t *testing.T) {
	conn, rec := bookstore(t)
	want := placed("7d6c0a8e-6a47-4c1e-9f7e-2b1d1c1e0a01")
	err := orders.NewPublisher(conn).PublishOrderPlaced(context.Background(), want, orders.HeaderXBookstoreTill("till-3"))
	if err != nil {
		t.Fatal(err)
	}
	got := acemqtest.ExpectPublished[orders.OrderPlaced](t, rec, orders.OrderPlacedRoutingKey, 1)
	m := got[0]
	if m.Payload.OrderID != want.OrderID || !m.Payload.PlacedAt.Equal(want.PlacedAt) || m.Payload.Lines[0] != want.Lines[0] {
		t.Errorf("payload %+v, want %+v", m.Payload, want)
	}
	if till := m.Envelope.Headers["x-bookstore-till"]; till != "till-3" {
		t.Errorf("x-bookstore-till = %v, want till-3", till)
	}
	if m.Envelope.Type != orders.OrderPlacedRoutingKey || m.Envelope.ID != rec.Published()[0].Outbound.MessageID {
		t.Errorf("envelope type %q id %q, want the routing key and the message id", m.Envelope.Type, m.Envelope.ID)
	}
	if m.ContentType != "application/json" || m.RoutingKey != orders.OrderPlacedRoutingKey {
		t.Errorf("content type %q routing key %q", m.ContentType, m.RoutingKey)
	}
}

func TestRecordKeepsExchangeKeyOutboundAndResult(t *testing.T) {
	conn, rec := bookstore(t)
	cancel := orders.CancelOrder{OrderID: "o-1", Reason: "changed my mind"}
	if err := orders.NewPublisher(conn).SendCancelOrder(context.Background(), cancel); err != nil {
		t.Fatal(err)
	}
	all := rec.Published()
	if len(all) != 1 {
		t.Fatalf("recorded %d publishes, want 1", len(all))
	}
	r := all[0]
	if r.Exchange != orders.Exchange || r.RoutingKey != orders.CancelOrderRoutingKey || r.Err != nil {
		t.Errorf("record %q %q err %v", r.Exchange, r.RoutingKey, r.Err)
	}
	if !r.Result.Confirmed || r.Result.MessageID != r.Outbound.MessageID || !strings.Contains(string(r.Outbound.Body), `"changed my mind"`) {
		t.Errorf("result %+v outbound %+v", r.Result, r.Outbound)
	}
}

func TestExpectPublishedFailureListsWhatWasPublishedInstead(t *testing.T) {
	conn, rec := bookstore(t)
	pub, ctx := orders.NewPublisher(conn), context.Background()
	if err := pub.SendCancelOrder(ctx, orders.CancelOrder{OrderID: "o-42"}); err != nil {
		t.Fatal(err)
	}
	if err := pub.PublishOrderPlaced(ctx, placed("o-43"), orders.HeaderXBookstoreTill("till-9")); err != nil {
		t.Fatal(err)
	}
	f := &fakeTB{TB: t}
	if got := acemqtest.ExpectPublished[orders.OrderPlaced](f, rec, orders.OrderPlacedRoutingKey, 2); got != nil {
		t.Errorf("returned %v after failing", got)
	}
	msg := f.onlyFatal(t)
	wantAll(t, msg, `want 2 messages published with routing key "order.placed", got 1; published:`,
		`#1 exchange "orders" routing key "cancel.order", application/json, body {"orderId":"o-42"`,
		`#2 exchange "orders" routing key "order.placed", application/json, headers x-bookstore-till=till-9, body {"orderId":"o-43"`)
	if strings.Contains(msg, acemq.ReservedHeaderPrefix) {
		t.Errorf("the listing shows the family's own headers:\n%s", msg)
	}
}

func TestExpectPublishedOnAnEmptyRecorderSaysNothingWasPublished(t *testing.T) {
	_, rec := acemqtest.Connect(t)
	f := &fakeTB{TB: t}
	acemqtest.ExpectPublished[orders.OrderPlaced](f, rec, orders.OrderPlacedRoutingKey, 2)
	wantAll(t, f.onlyFatal(t), "want 2 messages", "got 0", "nothing was published")
}

func TestPublishedLeavesOutFailedPublishesThatTheRecordKeeps(t *testing.T) {
	conn, rec := acemqtest.Connect(t)
	ctx := context.Background()
	_, failed := conn.PublishRaw(ctx, "no-such-exchange", "k", driver.Outbound{Body: []byte(`"a"`), ContentType: "application/json"})
	if failed == nil {
		t.Fatal("publishing to an undeclared exchange succeeded")
	}
	if _, err := conn.PublishRaw(ctx, "", "k", driver.Outbound{Body: []byte(`"b"`), ContentType: "application/json"}); err != nil {
		t.Fatal(err)
	}
	if got := acemqtest.Published[string](t, rec, "k"); len(got) != 1 || got[0].Payload != "b" {
		t.Errorf("Published = %+v, want only b", got)
	}
	all := rec.Published()
	if len(all) != 2 || all[0].Err == nil || all[0].Err.Error() != failed.Error() || all[1].Err != nil {
		t.Errorf("records %+v, want the failure then the success", all)
	}
}

func TestExpectNothingPublishedListsEveryPublishIncludingFailures(t *testing.T) {
	conn, rec := acemqtest.Connect(t)
	_, _ = conn.PublishRaw(context.Background(), "no-such-exchange", "k", driver.Outbound{Body: []byte("hello")})
	f := &fakeTB{TB: t}
	acemqtest.ExpectNothingPublished(f, rec)
	if len(f.errors) != 1 || len(f.fatals) != 0 {
		t.Fatalf("want one Errorf, got fatals %q errors %q", f.fatals, f.errors)
	}
	wantAll(t, f.errors[0], "want nothing published, got 1 message:", `exchange "no-such-exchange"`, "body hello", "no content type", "(failed: ")
	rec.Reset()
	f = &fakeTB{TB: t}
	acemqtest.ExpectNothingPublished(f, rec)
	if len(f.errors)+len(f.fatals) != 0 {
		t.Errorf("after Reset: fatals %q errors %q", f.fatals, f.errors)
	}
}

// shoutCodec writes strings upper-cased under a content type no default
// codec claims.
type shoutCodec struct{}

func (shoutCodec) ContentType() string { return "application/x-shout" }
func (shoutCodec) Encode(p any) ([]byte, error) {
	return []byte(strings.ToUpper(p.(string))), nil
}
func (shoutCodec) Decode(b []byte, dst any) error {
	*dst.(*string) = strings.ToLower(string(b))
	return nil
}
func (shoutCodec) CanDecode(ct string) bool { return ct == "application/x-shout" }

func TestPublishedWithDecodesWhatNoDefaultCodecReads(t *testing.T) {
	conn, rec := acemqtest.Connect(t)
	pub := acemq.NewPublisher[string](conn, "", "shouts", acemq.PublishWith[string](shoutCodec{}))
	if err := pub.Send(context.Background(), "hi there"); err != nil {
		t.Fatal(err)
	}
	f := &fakeTB{TB: t}
	acemqtest.Published[string](f, rec, "shouts")
	wantAll(t, f.onlyFatal(t), `no codec reads its content type "application/x-shout"`, "PublishedWith")
	got := acemqtest.ExpectPublishedWith[string](t, rec, "shouts", 1, shoutCodec{})
	if got[0].Payload != "hi there" {
		t.Errorf("payload %q, want hi there", got[0].Payload)
	}
	f = &fakeTB{TB: t}
	acemqtest.PublishedWith[string](f, rec, "shouts", acemq.JSONCodec{})
	wantAll(t, f.onlyFatal(t), `"application/x-shout"`)
}

func TestPublishedFailsOnABodyThatDoesNotDecodeShowingIt(t *testing.T) {
	conn, rec := acemqtest.Connect(t)
	body := []byte(`{"orderId": 5}`)
	if _, err := conn.PublishRaw(context.Background(), "", "order.placed", driver.Outbound{Body: body, ContentType: "application/json"}); err != nil {
		t.Fatal(err)
	}
	f := &fakeTB{TB: t}
	if got := acemqtest.Published[orders.OrderPlaced](f, rec, "order.placed"); got != nil {
		t.Errorf("returned %v after failing", got)
	}
	wantAll(t, f.onlyFatal(t), `message 1 published with routing key "order.placed"`, "cannot decode", `orderId`, "orders.OrderPlaced")
}

func TestRecorderRecordsConcurrentPublishesEachOnce(t *testing.T) {
	conn, rec := acemqtest.Connect(t)
	pub := acemq.NewPublisher[int](conn, "", "n")
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Go(func() { _ = pub.Send(context.Background(), i) })
	}
	wg.Wait()
	seen := map[int]bool{}
	for _, m := range acemqtest.ExpectPublished[int](t, rec, "n", 40) {
		seen[m.Payload] = true
	}
	if len(seen) != 40 {
		t.Errorf("saw %d distinct payloads, want 40", len(seen))
	}
}

func TestPublishedRecordsAreCopiesACallerCannotChange(t *testing.T) {
	conn, rec := acemqtest.Connect(t)
	out := driver.Outbound{Body: []byte("x"), Headers: map[string]any{"h": "v"}}
	if _, err := conn.PublishRaw(context.Background(), "", "k", out); err != nil {
		t.Fatal(err)
	}
	out.Body[0], out.Headers["h"] = 'y', "changed by the publisher"
	first := rec.Published()
	first[0].Outbound.Body[0], first[0].Outbound.Headers["h"] = 'z', "changed by the reader"
	again := rec.Published()[0].Outbound
	if string(again.Body) != "x" || again.Headers["h"] != "v" {
		t.Errorf("record changed to body %q headers %v", again.Body, again.Headers)
	}
}

func TestConnectFailsTheTestOnAnInvalidOption(t *testing.T) {
	f := &fakeTB{TB: t}
	conn, rec := acemqtest.Connect(f, nil)
	if conn != nil || rec != nil {
		t.Errorf("returned %v %v after failing", conn, rec)
	}
	wantAll(t, f.onlyFatal(t), "acemqtest: cannot connect", "option is nil")
}

func TestConnectBrokersArePrivateToEachCall(t *testing.T) {
	ctx := context.Background()
	a, _ := acemqtest.Connect(t)
	b, _ := acemqtest.Connect(t)
	if err := a.DeclareQueue(ctx, "only-in-a", acemq.Transient()); err != nil {
		t.Fatal(err)
	}
	if _, err := b.MessageCount(ctx, "only-in-a"); err == nil {
		t.Error("the second broker sees the first one's queue")
	}
}

func TestARequestAndItsReplyAreBothRecordedAndDecoded(t *testing.T) {
	conn, rec := bookstore(t)
	ctx := context.Background()
	srv, err := orders.ServeGetOrderStatus(ctx, conn, func(_ context.Context, m acemq.Message[orders.GetOrderStatusRequest]) (orders.GetOrderStatusResponse, error) {
		return orders.GetOrderStatusResponse{OrderID: m.Payload.OrderID, Status: orders.OrderStatusPaid}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	client := orders.NewClient(conn)
	t.Cleanup(func() { _ = client.Close() })
	if _, err := client.GetOrderStatus(ctx, orders.GetOrderStatusRequest{OrderID: "o-7"}); err != nil {
		t.Fatal(err)
	}
	req := acemqtest.ExpectPublished[orders.GetOrderStatusRequest](t, rec, orders.GetOrderStatusQueue, 1)[0]
	if req.Payload.OrderID != "o-7" || req.Envelope.ReplyTo == "" {
		t.Fatalf("request %+v reply to %q", req.Payload, req.Envelope.ReplyTo)
	}
	reply := acemqtest.ExpectPublished[orders.GetOrderStatusResponse](t, rec, req.Envelope.ReplyTo, 1)[0]
	if reply.Payload.Status != orders.OrderStatusPaid || reply.Envelope.CorrelationID != req.Envelope.CorrelationID {
		t.Errorf("reply %+v correlation %q, want paid and %q", reply.Payload, reply.Envelope.CorrelationID, req.Envelope.CorrelationID)
	}
}
