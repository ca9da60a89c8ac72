package generator

import (
	"strings"
	"testing"
)

// runProgram uses generated packages of the golden cases on the memory://
// broker: it publishes and sends, consumes what it sent, and checks the
// contract's rules (a required header is refused when missing, a header of
// another type than declared too). It exits non-zero with a reason on the
// first surprise.
const runProgram = `package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"os"
	"strings"
	"time"

	"example.com/golden/codec_avro/telemetry"
	"example.com/golden/codec_yaml_toml/config"
	"example.com/golden/commands/orders"
	"example.com/golden/delivery_limit/jobs"
	_ "example.com/golden/hostile_text/shop" // its contract text tries to inject an init that prints INJECTED
	headers "example.com/golden/headers/orders"
	"example.com/golden/unions/inventory"
	"example.com/golden/unions_avro/stock"
	"example.com/golden/xml/warehouse"
	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/avro"
	"github.com/acemq/acemq-gen/runtime/crypto"
	"github.com/acemq/acemq-gen/runtime/toml"
	"github.com/acemq/acemq-gen/runtime/yaml"
)

func run() error {
	if err := roundTrips(); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	conn, err := acemq.Connect(ctx, "memory://golden-run")
	if err != nil {
		return err
	}
	defer conn.Close()
	tenants := make(chan any, 1)
	c1, err := headers.ConsumeOrderPlaced(ctx, conn, "billing", func(_ context.Context, m acemq.Message[headers.OrderPlaced]) acemq.Ack {
		tenants <- m.Envelope.Headers["x-tenant"]
		return acemq.Accept()
	})
	if err != nil {
		return fmt.Errorf("consume event: %w", err)
	}
	defer c1.Close()
	refunds := make(chan orders.RefundOrder, 1)
	c2, err := orders.ConsumeRefundOrder(ctx, conn, func(_ context.Context, m acemq.Message[orders.RefundOrder]) acemq.Ack {
		refunds <- m.Payload
		return acemq.Accept()
	})
	if err != nil {
		return fmt.Errorf("consume command: %w", err)
	}
	defer c2.Close()
	hp := headers.NewPublisher(conn)
	if err := hp.PublishOrderPlaced(ctx, headers.OrderPlaced{OrderID: "o-1"}); err == nil {
		return fmt.Errorf("publishing without the required x-tenant header succeeded")
	}
	mistyped := acemq.Header("x-priority", "high")
	var typeErr *acemq.HeaderTypeError
	if err := hp.PublishOrderPlaced(ctx, headers.OrderPlaced{OrderID: "o-1"}, headers.HeaderXTenant("acme"), headers.HeaderXOrigin("till-1"), mistyped); !errors.As(err, &typeErr) {
		return fmt.Errorf("publishing a string as the int header x-priority gave %v", err)
	}
	if err := hp.PublishOrderPlaced(ctx, headers.OrderPlaced{OrderID: "o-1"}, headers.HeaderXTenant("acme"), headers.HeaderXOrigin("till-1")); err != nil {
		return fmt.Errorf("publish: %w", err)
	}
	if pd, err := hp.PublishOrderPlacedAsync(ctx, headers.OrderPlaced{OrderID: "o-1"}); err == nil || pd != nil {
		return fmt.Errorf("publishing asynchronously without the required x-tenant header gave %v, %v", pd, err)
	}
	pd, err := orders.NewPublisher(conn).SendRefundOrderAsync(ctx, orders.RefundOrder{OrderID: "o-2", AmountCents: 150})
	if err != nil {
		return fmt.Errorf("send async: %w", err)
	}
	if _, err := pd.Wait(ctx); err != nil {
		return fmt.Errorf("the pending send: %w", err)
	}
	select {
	case got := <-tenants:
		if got != "acme" {
			return fmt.Errorf("x-tenant arrived as %v", got)
		}
	case <-ctx.Done():
		return fmt.Errorf("OrderPlaced never arrived")
	}
	select {
	case got := <-refunds:
		if got.OrderID != "o-2" || got.AmountCents != 150 {
			return fmt.Errorf("RefundOrder arrived as %+v", got)
		}
	case <-ctx.Done():
		return fmt.Errorf("RefundOrder never arrived")
	}
	if err := avroUnions(ctx); err != nil {
		return err
	}
	if err := deliveryLimits(ctx); err != nil {
		return err
	}
	return xmlMessages(ctx)
}

// deliveryLimits declares the queues of a contract with delivery limits on
// memory:// and checks each carries its x-delivery-limit.
func deliveryLimits(ctx context.Context) error {
	conn, err := acemq.Connect(ctx, "memory://golden-limits", acemq.SetAsideQueuesOfType(acemq.QueueClassic))
	if err != nil {
		return err
	}
	defer conn.Close()
	accept := func(context.Context, acemq.Message[jobs.JobFinished]) acemq.Ack { return acemq.Accept() }
	c, err := jobs.ConsumeJobFinished(ctx, conn, "audit", accept)
	if err != nil {
		return fmt.Errorf("consume with a delivery limit: %w", err)
	}
	defer c.Close()
	if err := jobs.DeclareTopology(ctx, conn); err != nil {
		return fmt.Errorf("declare with delivery limits: %w", err)
	}
	plan := jobs.Topology().String()
	for queue, want := range map[string]string{"jobs.run-job": "x-dead-letter-strategy=at-least-once, x-delivery-limit=3, x-overflow=reject-publish)",
		"jobs.job-status": "x-delivery-limit=2)", "jobs.cancel-job": "routing-key=jobs.cancel-job.dlq)"} {
		line := ""
		for _, l := range strings.Split(plan, "\n") {
			if strings.Contains(l, "declare queue "+queue+" ") {
				line = l
			}
		}
		if !strings.Contains(line, "quorum") || !strings.HasSuffix(line, want) {
			return fmt.Errorf("queue %s is declared as %q, want it to end %q:\n%s", queue, line, want, plan)
		}
	}
	return setAsideQueues(ctx, conn, plan)
}

// setAsideQueues checks the contract's set-aside-queues keys over a
// connection that asks for classic ones: the file's quorum, CancelJob's
// classic; consumers declare them as the topology did.
func setAsideQueues(ctx context.Context, conn *acemq.Conn, plan string) error {
	for queue, want := range map[string]string{"jobs.run-job.dlq": "quorum", "jobs.run-job.parked": "quorum",
		"jobs.job-status.dlq": "quorum", "jobs.cancel-job.dlq": "classic"} {
		if !strings.Contains(plan, "declare queue "+queue+" (durable, "+want+")") {
			return fmt.Errorf("the set-aside queue %s is not declared %s:\n%s", queue, want, plan)
		}
	}
	accept := func(context.Context, acemq.Message[jobs.RunJob]) acemq.Ack { return acemq.Accept() }
	c, err := jobs.ConsumeRunJob(ctx, conn, accept)
	if err != nil {
		return fmt.Errorf("consume a command whose set-aside queues are quorum: %w", err)
	}
	defer c.Close()
	for queue, qt := range map[string]acemq.QueueType{"audit.job.finished.dlq": acemq.QueueClassic, "jobs.run-job.parked": acemq.QueueClassic} {
		if err := conn.DeclareQueue(ctx, queue, acemq.OfType(qt)); err == nil {
			return fmt.Errorf("%s accepts a classic redeclaration; the contract makes it quorum", queue)
		}
	}
	return nil
}

// xmlMessages sends an event and an RPC of codec xml through memory://: a
// list of records and of strings as repeated elements, decimals, a date, a
// timestamp, a duration, an enum, an optional set and one unset.
func xmlMessages(ctx context.Context) error {
	conn, err := acemq.Connect(ctx, "memory://golden-xml")
	if err != nil {
		return err
	}
	defer conn.Close()
	type delivery struct {
		m           warehouse.ShipmentBooked
		contentType string
		body        string
	}
	booked := make(chan delivery, 1)
	c, err := warehouse.ConsumeShipmentBooked(ctx, conn, "audit", func(_ context.Context, m acemq.Message[warehouse.ShipmentBooked]) acemq.Ack {
		booked <- delivery{m.Payload, m.ContentType, string(m.Body)}
		return acemq.Accept()
	})
	if err != nil {
		return err
	}
	defer c.Close()
	note := "fragile"
	in := warehouse.ShipmentBooked{ShipmentID: "s-1",
		Lines: []warehouse.Line{{Sku: "a", Quantity: 2, Price: big.NewRat(1999, 100)}, {Sku: "b", Quantity: 1, Price: big.NewRat(5, 1)}},
		Tags:  []string{"x", "y"}, Total: big.NewRat(4498, 100), Day: time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC),
		BookedAt: time.UnixMilli(1764496800123).UTC(), Wait: 1500 * time.Millisecond, Status: warehouse.StatusShipped, Note: &note}
	if err := warehouse.NewPublisher(conn).PublishShipmentBooked(ctx, in); err != nil {
		return fmt.Errorf("publish xml: %w", err)
	}
	var got delivery
	select {
	case got = <-booked:
	case <-ctx.Done():
		return fmt.Errorf("ShipmentBooked never arrived")
	}
	if got.contentType != "application/xml" || !strings.HasPrefix(got.body, "<ShipmentBooked>") ||
		!strings.Contains(got.body, "<tags>x</tags><tags>y</tags>") || !strings.Contains(got.body, "<total>44.98</total>") {
		return fmt.Errorf("ShipmentBooked travelled as %s: %s", got.contentType, got.body)
	}
	if g, w := describeShipment(got.m), describeShipment(in); g != w {
		return fmt.Errorf("ShipmentBooked came back as\n%s\nwant\n%s\nfrom %s", g, w, got.body)
	}
	return xmlRPC(ctx, conn)
}

// describeShipment spells a ShipmentBooked out, rationals and times included.
func describeShipment(m warehouse.ShipmentBooked) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s %s %s %s %s %v", m.ShipmentID, m.Tags, m.Total.RatString(), m.Day.UTC(), m.BookedAt.UTC(), m.Wait, m.Status)
	for _, l := range m.Lines {
		fmt.Fprintf(&b, " [%s %d %s]", l.Sku, l.Quantity, l.Price.RatString())
	}
	if m.Note != nil {
		fmt.Fprintf(&b, " note=%s", *m.Note)
	}
	return fmt.Sprintf("%s carrier=%v", b.String(), m.Carrier)
}

// xmlRPC calls an RPC whose request and response travel as XML.
func xmlRPC(ctx context.Context, conn *acemq.Conn) error {
	s, err := warehouse.ServeQuoteShipment(ctx, conn, func(_ context.Context, m acemq.Message[warehouse.QuoteShipmentRequest]) (warehouse.QuoteShipmentResponse, error) {
		total := new(big.Rat)
		for _, l := range m.Payload.Lines {
			total.Add(total, new(big.Rat).Mul(l.Price, big.NewRat(int64(l.Quantity), 1)))
		}
		days := int32(len(m.Payload.Lines))
		return warehouse.QuoteShipmentResponse{Total: total, Days: &days}, nil
	})
	if err != nil {
		return err
	}
	defer s.Close()
	cl := warehouse.NewClient(conn)
	defer cl.Close()
	resp, err := cl.QuoteShipment(ctx, warehouse.QuoteShipmentRequest{Lines: []warehouse.Line{{Sku: "a", Quantity: 3, Price: big.NewRat(1, 4)}}})
	if err != nil {
		return fmt.Errorf("xml rpc: %w", err)
	}
	if resp.Total.Cmp(big.NewRat(3, 4)) != 0 || resp.Days == nil || *resp.Days != 1 {
		return fmt.Errorf("xml rpc answered %v, %v", resp.Total, resp.Days)
	}
	return nil
}

// avroUnions sends unions of every branch kind through Avro: plain, through
// the registry and encrypted.
func avroUnions(ctx context.Context) error {
	key, err := crypto.NewKey("k")
	if err != nil {
		return err
	}
	kr, err := crypto.NewKeyring(key)
	if err != nil {
		return err
	}
	conn, err := acemq.Connect(ctx, "memory://golden-unions", avro.WithRegistry(avro.NewMemoryRegistry()), crypto.WithKeyring(kr))
	if err != nil {
		return err
	}
	defer conn.Close()
	moved := make(chan stock.StockMoved, 4)
	c1, err := stock.ConsumeStockMoved(ctx, conn, "audit", func(_ context.Context, m acemq.Message[stock.StockMoved]) acemq.Ack {
		moved <- m.Payload
		return acemq.Accept()
	})
	if err != nil {
		return err
	}
	defer c1.Close()
	counted := make(chan stock.CountStock, 2)
	c2, err := stock.ConsumeCountStock(ctx, conn, func(_ context.Context, m acemq.Message[stock.CountStock]) acemq.Ack {
		counted <- m.Payload
		return acemq.Accept()
	})
	if err != nil {
		return err
	}
	defer c2.Close()
	at := time.UnixMilli(1764496800123).UTC()
	box := stock.Box{Label: stock.BoxLabelLong{Value: 9}}
	ins := []stock.StockMoved{
		{Sku: "a", Change: stock.StockMovedChangeLong{Value: -3}, Count: stock.StockMovedCountInt{Value: 2},
			Note: stock.StockMovedNoteTimestampMillis{Value: at}, Price: stock.StockMovedPriceDecimal{Value: big.NewRat(5, 4)},
			Boxes: []stock.Box{box, {Label: stock.BoxLabelString{Value: "x"}}}, Spare: &box, ByName: map[string]stock.Box{"b": box}},
		{Sku: "b", Change: stock.StockMovedChangeQuantity{Value: stock.Quantity{Amount: 4, Unit: "kg"}}, Count: stock.StockMovedCountString{Value: "many"},
			Note: stock.StockMovedNoteString{Value: "n"}, Price: stock.StockMovedPriceLevel{Value: stock.LevelHigh}},
		{Sku: "c", Change: stock.StockMovedChangeBox{Value: box}, Count: stock.StockMovedCountInt{Value: -1}, Note: stock.StockMovedNoteDouble{Value: 0.5}},
	}
	p := stock.NewPublisher(conn)
	for _, in := range ins {
		if err := p.PublishStockMoved(ctx, in); err != nil {
			return fmt.Errorf("publish %s: %w", in.Sku, err)
		}
		var got stock.StockMoved
		select {
		case got = <-moved:
		case <-ctx.Done():
			return fmt.Errorf("StockMoved %s never arrived", in.Sku)
		}
		if g, w := describeStock(got), describeStock(in); g != w {
			return fmt.Errorf("StockMoved came back as\n%s\nwant\n%s", g, w)
		}
	}
	if err := p.SendCountStock(ctx, stock.CountStock{Sku: "a", Amount: stock.CountStockAmountString{Value: "lots"}}); err != nil {
		return err
	}
	select {
	case got := <-counted:
		if got.Amount != (stock.CountStockAmountString{Value: "lots"}) {
			return fmt.Errorf("CountStock came back as %+v", got)
		}
	case <-ctx.Done():
		return fmt.Errorf("CountStock never arrived")
	}
	return nil
}

// describeStock spells a StockMoved out, rationals and times included; an
// empty list or map reads as nil (Avro does not tell them apart).
func describeStock(m stock.StockMoved) string {
	if len(m.Boxes) == 0 {
		m.Boxes = nil
	}
	if len(m.ByName) == 0 {
		m.ByName = nil
	}
	price := fmt.Sprint(m.Price)
	if d, ok := m.Price.(stock.StockMovedPriceDecimal); ok {
		price = d.Value.RatString()
	}
	note := fmt.Sprint(m.Note)
	if t, ok := m.Note.(stock.StockMovedNoteTimestampMillis); ok {
		note = t.Value.UTC().String()
	}
	return fmt.Sprintf("%s %#v %#v %s %s %#v %#v %#v", m.Sku, m.Change, m.Count, note, price, m.Boxes, m.Spare, m.ByName)
}

// roundTrips encodes and decodes payloads with the codecs the generated
// packages choose, outside a broker: Avro with every logical type, unions as
// Avro's JSON encoding, YAML and TOML.
func roundTrips() error {
	at := time.Date(2026, 11, 30, 10, 0, 0, 123456000, time.UTC)
	r := telemetry.ReadingTaken{SensorID: "s-1", TakenAt: at, Day: time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC),
		Offset: 1500 * time.Millisecond, Window: 250 * time.Microsecond, Value: 2.5, Ratio: 0.5, Count: 7,
		Level: telemetry.LevelHigh, Digest: telemetry.Digest{1, 2, 3, 4, 5, 6, 7, 8}, Price: big.NewRat(1999, 100),
		Tags: map[string]string{"a": "b"}, History: []int64{1, 2}, Raw: []byte{9}, Ok: true}
	var back telemetry.ReadingTaken
	if err := avroThrough(r, &back); err != nil {
		return err
	}
	if !back.TakenAt.Equal(at) || !back.Day.Equal(r.Day) || back.Offset != r.Offset || back.Window != r.Window || back.Level != r.Level ||
		back.Digest != r.Digest || back.Price.Cmp(r.Price) != 0 || back.Tags["a"] != "b" || back.Note != nil || !back.Ok || !back.Level.Valid() {
		return fmt.Errorf("avro round trip gave %+v", back)
	}
	if err := optionalsRoundTrip(at); err != nil {
		return err
	}
	if telemetry.Level("medium").Valid() {
		return fmt.Errorf("an unknown symbol is valid")
	}
	return errors.Join(unionRoundTrip(), textRoundTrips(at))
}

// avroThrough encodes in with its type's Avro schema and decodes the body
// into out.
func avroThrough[T interface{ AvroSchema() string }](in T, out *T) error {
	c, err := avro.Of(in.AvroSchema())
	if err != nil {
		return err
	}
	body, err := c.Encode(in)
	if err != nil {
		return fmt.Errorf("avro encode of %T: %w", in, err)
	}
	if err := c.Decode(body, out); err != nil {
		return fmt.Errorf("avro decode of %T: %w", in, err)
	}
	return nil
}

// optionalsRoundTrip sends every optional kind through Avro, set and unset.
func optionalsRoundTrip(at time.Time) error {
	level, digest, price := telemetry.LevelHigh, telemetry.Digest{7}, big.NewRat(5, 4)
	day, offset, count, id := at.Truncate(24*time.Hour), 3*time.Microsecond, int32(4), "u"
	at = at.Truncate(time.Millisecond)
	set := telemetry.OptionalsSet{Level: &level, Digest: &digest, Price: &price, At: &at, Day: &day, Offset: &offset,
		Count: &count, Items: []string{"x"}, Inner: &telemetry.Inner{A: "in"}, ID: &id}
	for _, in := range []telemetry.OptionalsSet{set, {}} {
		var out telemetry.OptionalsSet
		if err := avroThrough(in, &out); err != nil {
			return err
		}
		if got, want := fmt.Sprint(describe(out)), fmt.Sprint(describe(in)); got != want {
			return fmt.Errorf("optionals came back as %s, want %s", got, want)
		}
	}
	return nil
}

// describe spells out every optional field of o, nil or its value.
func describe(o telemetry.OptionalsSet) []any {
	out := []any{o.Items}
	if o.Level != nil {
		out = append(out, *o.Level, *o.Digest, (*o.Price).RatString(), o.At.UTC(), o.Day.UTC(), *o.Offset, *o.Count, *o.Inner, *o.ID)
	}
	return append(out, o.Level == nil, o.Digest == nil, o.Price == nil, o.At == nil, o.Day == nil, o.Offset == nil, o.Count == nil, o.Inner == nil, o.ID == nil)
}

func unionRoundTrip() error {
	in := inventory.StockAdjusted{Sku: "k", Change: inventory.StockAdjustedChangeQuantity{Value: inventory.Quantity{Amount: 3, Unit: "box"}},
		Note: inventory.StockAdjustedNoteDouble{Value: 1.5}, At: inventory.StockAdjustedAtString{Value: "soon"}}
	body, err := json.Marshal(in)
	if err != nil {
		return err
	}
	want := "{\"sku\":\"k\",\"change\":{\"com.acme.inventory.Quantity\":{\"amount\":3,\"unit\":\"box\"}},\"note\":{\"double\":1.5},\"at\":{\"string\":\"soon\"},\"reason\":null}"
	if string(body) != want {
		return fmt.Errorf("union JSON %s, want %s", body, want)
	}
	var back inventory.StockAdjusted
	if err := json.Unmarshal(body, &back); err != nil {
		return fmt.Errorf("union decode: %w", err)
	}
	if back.Change != in.Change || back.Note != in.Note || back.At != in.At || back.Reason != nil {
		return fmt.Errorf("union round trip gave %+v", back)
	}
	if err := json.Unmarshal([]byte("{\"change\":{\"boolean\":true}}"), &back); err == nil {
		return fmt.Errorf("an unknown branch was accepted")
	}
	return nil
}

func textRoundTrips(at time.Time) error {
	s := config.SettingChanged{Key: "k", Value: "NO", ChangedAt: at}
	body, err := yaml.Codec{}.Encode(s)
	if err != nil {
		return err
	}
	var sb config.SettingChanged
	if err := (yaml.Codec{}).Decode(body, &sb); err != nil || sb.Value != "NO" || !sb.ChangedAt.Equal(at) {
		return fmt.Errorf("yaml round trip gave %+v, %v", sb, err)
	}
	l := config.LimitsChanged{MaxItems: 5, Labels: map[string]string{"x": "y"}}
	body, err = toml.Codec{}.Encode(l)
	if err != nil {
		return err
	}
	var lb config.LimitsChanged
	if err := (toml.Codec{}).Decode(body, &lb); err != nil || lb.MaxItems != 5 || lb.Labels["x"] != "y" {
		return fmt.Errorf("toml round trip gave %+v, %v", lb, err)
	}
	return nil
}
` + programMain

// TestGoldenOutputRunsOnTheMemoryBroker builds a program from generated
// packages and runs it: events and commands round-trip through the runtime,
// the contract's required header is enforced on publish, and the
// asynchronous Send<Command>Async's Pending resolves.
func TestGoldenOutputRunsOnTheMemoryBroker(t *testing.T) {
	out, err := runGoldenProgram(t, goldenModule(t), "run", runProgram)
	if err != nil {
		t.Fatalf("the program on generated code failed: %v\n%s", err, out)
	}
	if strings.Contains(string(out), "INJECTED") {
		t.Fatalf("code injected by contract text ran:\n%s", out)
	}
}
