package generator

import (
	"path/filepath"
	"strings"
	"testing"
)

// boundProgram sends the messages of golden case bound, whose payloads
// carry types of the second module example.com/shared, on the memory://
// broker: JSON (the bound fixed type as base64), Avro with a bound record
// as a union branch, and Avro through the registry. It exits non-zero with a
// reason when a message does not come back as it went.
const boundProgram = `package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strings"
	"time"

	"example.com/golden/bound/billing"
	"example.com/shared/ids"
	"example.com/shared/money"
	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/avro"
)

func run() error {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	conn, err := acemq.Connect(ctx, "memory://golden-bound", avro.WithRegistry(avro.NewMemoryRegistry()))
	if err != nil {
		return err
	}
	defer conn.Close()
	taken := make(chan billing.PaymentTaken, 1)
	settled := make(chan billing.PaymentSettled, 2)
	refunds := make(chan billing.RefundPayment, 1)
	for _, start := range []func() (*acemq.Consumer, error){
		func() (*acemq.Consumer, error) {
			return billing.ConsumePaymentTaken(ctx, conn, "audit", func(_ context.Context, m acemq.Message[billing.PaymentTaken]) acemq.Ack {
				taken <- m.Payload
				return acemq.Accept()
			})
		},
		func() (*acemq.Consumer, error) {
			return billing.ConsumePaymentSettled(ctx, conn, "audit", func(_ context.Context, m acemq.Message[billing.PaymentSettled]) acemq.Ack {
				settled <- m.Payload
				return acemq.Accept()
			})
		},
		func() (*acemq.Consumer, error) {
			return billing.ConsumeRefundPayment(ctx, conn, func(_ context.Context, m acemq.Message[billing.RefundPayment]) acemq.Ack {
				refunds <- m.Payload
				return acemq.Accept()
			})
		},
	} {
		c, err := start()
		if err != nil {
			return err
		}
		defer c.Close()
	}
	note := "split"
	eur := money.Amount{Cents: 1250, Currency: money.EUR, Note: &note}
	usd := money.Amount{Cents: 300, Currency: money.USD}
	p := billing.NewPublisher(conn)
	in := billing.PaymentTaken{PaymentID: "p-1", Total: eur, Refunds: []money.Amount{usd}, ByCurrency: map[string]money.Amount{"USD": usd},
		Tip: &usd, Currency: money.EUR, Digest: ids.Digest{1, 2, 3, 4, 5, 6, 7, 8}}
	body, err := json.Marshal(in)
	if err != nil {
		return err
	}
	if !strings.Contains(string(body), "\"digest\":\"AQIDBAUGBwg=\"") || !strings.Contains(string(body), "\"total\":{\"cents\":1250,\"currency\":\"EUR\",\"note\":\"split\"}") {
		return fmt.Errorf("PaymentTaken in JSON is %s", body)
	}
	if err := p.PublishPaymentTaken(ctx, in); err != nil {
		return fmt.Errorf("publish PaymentTaken: %w", err)
	}
	if err := expect(ctx, taken, in); err != nil {
		return err
	}
	for _, in := range []billing.PaymentSettled{
		{PaymentID: "p-1", Total: eur, Digest: ids.Digest{9}, Adjustment: billing.PaymentSettledAdjustmentMoney{Value: usd}},
		{PaymentID: "p-2", Total: usd, Previous: ptr(money.USD), Adjustment: billing.PaymentSettledAdjustmentString{Value: "none"}},
	} {
		if err := p.PublishPaymentSettled(ctx, in); err != nil {
			return fmt.Errorf("publish PaymentSettled: %w", err)
		}
		if err := expect(ctx, settled, in); err != nil {
			return err
		}
	}
	refund := billing.RefundPayment{PaymentID: "p-1", Amount: eur}
	if err := p.SendRefundPayment(ctx, refund); err != nil {
		return fmt.Errorf("send RefundPayment: %w", err)
	}
	return expect(ctx, refunds, refund)
}

func ptr[T any](v T) *T { return &v }

// expect waits for one message and compares it with want.
func expect[T any](ctx context.Context, ch <-chan T, want T) error {
	select {
	case got := <-ch:
		if !reflect.DeepEqual(got, want) {
			return fmt.Errorf("%T came back as %+v, want %+v", want, got, want)
		}
		return nil
	case <-ctx.Done():
		return fmt.Errorf("%T never arrived", want)
	}
}
` + programMain

// TestBoundTypesTravelOnTheMemoryBroker runs a program on golden case
// bound, whose contract binds a record, an enum and a fixed type to the Go
// types of a second module: its messages go through JSON, Avro and the
// registry and come back equal.
func TestBoundTypesTravelOnTheMemoryBroker(t *testing.T) {
	if out, err := runGoldenProgram(t, goldenModule(t), "run", boundProgram); err != nil {
		t.Fatalf("the program on the bound case failed: %v\n%s", err, out)
	}
}

// The bound case's generated package declares no type for a bound one and
// imports the packages the types are bound to.
func TestABoundTypeIsUsedAndNotGenerated(t *testing.T) {
	res := Generate(caseSources(t, filepath.Join(goldenDir, "bound")), goldenOptions("bound")...)
	if len(res.Diagnostics) > 0 || len(res.Files) != 1 {
		t.Fatalf("generate: %v", res.Diagnostics)
	}
	src := string(res.Files[0].Data)
	for _, want := range []string{`"example.com/shared/money"`, `"example.com/shared/ids"`, "Total      money.Amount", "Digest     ids.Digest"} {
		if !strings.Contains(src, want) {
			t.Errorf("the generated package lacks %s", want)
		}
	}
	for _, decl := range []string{"type Money ", "type Currency ", "type Digest ", "func (Money)", "CurrencyEUR"} {
		if strings.Contains(src, decl) {
			t.Errorf("the generated package declares %q for a bound type", decl)
		}
	}
}

// Without the module to load them from, bound types cannot be checked, so
// generation refuses them rather than emit code it did not check.
func TestABoundTypeNeedsTheOutputModule(t *testing.T) {
	res := Generate(caseSources(t, filepath.Join(goldenDir, "bound")), ImportPath("example.com/x"))
	if len(res.Files) != 0 || len(res.Diagnostics) != 3 {
		t.Fatalf("got %d files and %s", len(res.Files), stderrOf(res.Diagnostics))
	}
	want := "billing.acemq.yaml:6:5: type Currency is bound to example.com/shared/money.Currency, which is loaded in the output directory's Go module: generate into a directory of a Go module"
	if got := res.Diagnostics[0].String(); got != want {
		t.Fatalf("got %s\nwant %s", got, want)
	}
}

// Vet checks bound types against their Go types when it knows the module.
func TestVetWithTheModuleChecksBoundTypes(t *testing.T) {
	srcs := caseSources(t, filepath.Join(goldenDir, "diag_bound"))
	if ds := Vet(srcs); ds.HasErrors() {
		t.Fatalf("vet without a module checked Go types: %s", stderrOf(ds))
	}
	ds := Vet(srcs, goldenOptions("diag_bound")...)
	if !strings.Contains(stderrOf(ds), `has json tag "cents_total"; the contract's wire name is "cents"`) {
		t.Fatalf("vet with the module said:\n%s", stderrOf(ds))
	}
}
