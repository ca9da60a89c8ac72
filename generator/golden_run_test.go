package generator

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// runProgram uses generated packages of the golden cases on the memory://
// broker: it publishes and sends, consumes what it sent, and checks the
// contract's rules (a required header is refused when missing). It exits
// non-zero with a reason on the first surprise.
const runProgram = `package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"example.com/golden/commands/orders"
	headers "example.com/golden/headers/orders"
	"github.com/acemq/acemq-gen/runtime/acemq"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run() error {
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
	if err := hp.PublishOrderPlaced(ctx, headers.OrderPlaced{OrderID: "o-1"}, headers.HeaderXTenant("acme")); err != nil {
		return fmt.Errorf("publish: %w", err)
	}
	if err := orders.NewPublisher(conn).SendRefundOrder(ctx, orders.RefundOrder{OrderID: "o-2", AmountCents: 150}); err != nil {
		return fmt.Errorf("send: %w", err)
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
	return nil
}
`

// TestGoldenOutputRunsOnTheMemoryBroker builds a program from generated
// packages and runs it: events and commands round-trip through the runtime,
// and the contract's required header is enforced on publish.
func TestGoldenOutputRunsOnTheMemoryBroker(t *testing.T) {
	root, err := filepath.Abs("..")
	must(t, err)
	mod := t.TempDir()
	copyGoldenPackages(t, mod)
	writeModule(t, mod, root)
	must(t, os.MkdirAll(filepath.Join(mod, "run"), 0o755))
	must(t, os.WriteFile(filepath.Join(mod, "run", "main.go"), []byte(runProgram), 0o644))
	cmd := exec.Command("go", "run", "./run")
	cmd.Dir = mod
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the program on generated code failed: %v\n%s", err, out)
	}
}
