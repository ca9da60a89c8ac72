package generator

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// generated returns the file at path of a golden case's output.
func generated(t *testing.T, name, path string) string {
	t.Helper()
	res := Generate(caseSources(t, filepath.Join(goldenDir, name)), ImportPath(goldenImportPath(name)))
	if len(res.Diagnostics) > 0 {
		t.Fatal(stderrOf(res.Diagnostics))
	}
	for _, f := range res.Files {
		if f.Path == path {
			return string(f.Data)
		}
	}
	t.Fatalf("%s generated no %s", name, path)
	return ""
}

func TestATypeLibraryIsImportedNotCopied(t *testing.T) {
	billing := generated(t, "imports", "billing/billing.acemq.go")
	if strings.Contains(billing, "type Money struct") || !strings.Contains(billing, "money.Money") ||
		!strings.Contains(billing, `"example.com/golden/imports/money"`) {
		t.Fatalf("billing does not import the library's Money:\n%s", billing)
	}
	if lib := generated(t, "imports", "money/money.acemq.go"); strings.Contains(lib, "Exchange") || !strings.Contains(lib, "type Money struct") {
		t.Fatalf("the library is not a package of types only:\n%s", lib)
	}
}

func TestAnAvscRecordWithAnAcemqPropertyIsAMessageAndTheOthersAreTypes(t *testing.T) {
	m, ds := build(caseSources(t, filepath.Join(goldenDir, "avsc_input")))
	if ds.HasErrors() || len(m.Domains) != 1 {
		t.Fatalf("domains %d:\n%s", len(m.Domains), stderrOf(ds))
	}
	dom := m.Domains[0]
	var msgs, types []string
	for _, x := range dom.Messages {
		msgs = append(msgs, x.Kind.String()+" "+x.Name+" "+x.Codec)
	}
	for _, r := range dom.Records {
		types = append(types, r.Name)
	}
	if got := strings.Join(msgs, ", "); got != "command HoldOrder json, event OrderShipped avro-registered" {
		t.Errorf("messages: %s", got)
	}
	if got := strings.Join(types, ", "); got != "Parcel, Size" {
		t.Errorf("types: %s", got)
	}
}

// joined is generated source with its broken lists joined back onto one
// line, so a test can look for a signature or a call whatever the layout.
func joined(src string) string {
	src = regexp.MustCompile(`([({])\n\s*`).ReplaceAllString(src, "$1")
	src = regexp.MustCompile(`,\n\s*([)}])`).ReplaceAllString(src, "$1")
	return regexp.MustCompile(`,\n\s*`).ReplaceAllString(src, ", ")
}

func TestAnRPCBecomesRequestResponseServeAndAClientMethod(t *testing.T) {
	src := joined(generated(t, "rpc", "orders/orders.acemq.go"))
	for _, want := range []string{
		"type GetOrderSummaryRequest struct", "type GetOrderSummaryResponse struct",
		`ErrNotFound = patterns.NewError("NotFound")`,
		"func ServeGetOrderSummary(ctx context.Context, conn *acemq.Conn, h func(context.Context, acemq.Message[GetOrderSummaryRequest]) (GetOrderSummaryResponse, error), opts ...acemq.ConsumeOption) (*patterns.Responder, error)",
		"func (c *Client) GetOrderSummary(ctx context.Context, req GetOrderSummaryRequest, opts ...acemq.EnvelopeOption) (GetOrderSummaryResponse, error)",
		"var getOrderSummarySpec = &acemqimpl.RPCSpec[GetOrderSummaryRequest, GetOrderSummaryResponse]{",
		"Timeout: 5 * time.Second", "getOrderSummarySpec.Client(conn)", "return getOrderSummarySpec.Serve(ctx, conn, h, opts...)",
		`GetOrderSummaryQueue = "orders.get-order-summary"`,
	} {
		if !strings.Contains(src, want) {
			t.Errorf("missing %s", want)
		}
	}
}

func TestRegistryAndKeyringCodecsComeFromTheConnection(t *testing.T) {
	src := joined(generated(t, "codec_avro_registered", "orders/orders.acemq.go"))
	for _, want := range []string{"Codec: crypto.Encrypted(avro.RegisteredBuilder(",
		`avro.RegisteredBuilder("orders-shipped-value", OrderShipped{}.AvroSchema(), avro.ReaderSchema(OrderShipped{}.AvroFullSchema()))`} {
		if !strings.Contains(src, want) {
			t.Errorf("missing %s", want)
		}
	}
}

func TestAnEventConsumerRefusesAnEmptyServiceThroughTheRuntime(t *testing.T) {
	src := joined(generated(t, "headers", "orders/orders.acemq.go"))
	if !strings.Contains(src, "return orderPlacedSpec.Subscribe(ctx, conn, service, h, opts...)") ||
		!strings.Contains(src, "return orderPlacedSpec.QueueOf(service)") {
		t.Fatal("Consume<Event> and <Event>Queue do not both name the queue through the specification")
	}
	if !strings.Contains(src, `acemqimpl.ConnOptions(orderPlacedSpec.Rules(), orderPaidSpec.Rules(), refundOrderSpec.Rules())`) {
		t.Fatal("Rules does not enforce the header rules on publish and consume")
	}
}

func TestDeclaredHeaderTypesAreEmittedForEveryHeaderThatDeclaresOne(t *testing.T) {
	src := generated(t, "headers", "orders/orders.acemq.go")
	for _, want := range []string{
		`{Name: "x-tenant", Type: acemq.StringHeader, Required: true}`,
		`{Name: "x-priority", Type: acemq.IntHeader}`,
		`{Name: "x-trace-sampled", Type: acemq.BooleanHeader}`,
		`{Name: "x-origin", Required: true}`,
		`{Name: "x-amount", Type: acemq.LongHeader, Required: true}`,
		`{Name: "x-rate", Type: acemq.DoubleHeader}`,
		"var refundOrderSpec = &acemqimpl.MessageSpec[RefundOrder]{",
		"Headers: []acemq.HeaderRule{",
	} {
		if !strings.Contains(src, want) {
			t.Errorf("missing %s", want)
		}
	}
	if strings.Contains(src, `"x-note"}`) || strings.Contains(src, "RequireHeaders") {
		t.Error("a header neither required nor typed got a rule, or RequireHeaders is still emitted")
	}
}
