package generator

import (
	"strings"
	"testing"
)

// streamsRunProgram appends through the generated ledger package of the
// golden case streams on memory://.
const streamsRunProgram = `package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"example.com/golden/streams/ledger"
	"github.com/acemq/acemq-gen/runtime/acemq"
)

func run() error {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	conn, err := acemq.Connect(ctx, "memory://golden-streams")
	if err != nil {
		return err
	}
	defer conn.Close()
	p := ledger.NewPublisher(conn)
	rec := ledger.PostingAudit{PostingID: "p-1", AccountID: "a-1", AmountCents: 5}
	tenant := acemq.Header("x-tenant", "acme")
	if err := p.AppendPostingAudit(ctx, rec, tenant); !errors.Is(err, acemq.ErrUnroutable) {
		return fmt.Errorf("appending to a stream nobody declared gave %v, want acemq.ErrUnroutable", err)
	}
	if err := ledger.DeclareTopology(ctx, conn); err != nil {
		return fmt.Errorf("declare topology: %w", err)
	}
	if err := ledger.DeclarePostingAudit(ctx, conn); err != nil {
		return fmt.Errorf("declare the stream again: %w", err)
	}
	if err := p.AppendPostingAudit(ctx, rec); err == nil {
		return fmt.Errorf("appending without the required x-tenant header succeeded")
	}
	if err := p.AppendPostingAudit(ctx, rec, tenant); err != nil {
		return fmt.Errorf("append: %w", err)
	}
	pd, err := p.AppendLegacyFeedAsync(ctx, ledger.LegacyFeed{Line: "l-1"})
	if err != nil {
		return fmt.Errorf("append async: %w", err)
	}
	if _, err := pd.Wait(ctx); err != nil {
		return fmt.Errorf("the pending append: %w", err)
	}
	if ledger.PostingAuditStream != "ledger.posting-audit" {
		return fmt.Errorf("PostingAuditStream is %q", ledger.PostingAuditStream)
	}
	return nil
}

func main() {
	if err := run(); err != nil {
		fmt.Println("FAIL:", err)
		os.Exit(1)
	}
	fmt.Println("ok")
}
`

// TestGoldenStreamAppendIsConfirmedMandatoryAndDeclaredByTheTopology runs
// the generated Append<Stream> on memory://: a stream nobody declared is
// acemq.ErrUnroutable, DeclareTopology declares it, the contract's required
// header is enforced, and the asynchronous append's Pending resolves.
func TestGoldenStreamAppendIsConfirmedMandatoryAndDeclaredByTheTopology(t *testing.T) {
	out, err := runGoldenProgram(t, goldenModule(t), "streams", streamsRunProgram)
	if err != nil || !strings.Contains(string(out), "ok") {
		t.Fatalf("the program on the generated stream code failed: %v\n%s", err, out)
	}
}
