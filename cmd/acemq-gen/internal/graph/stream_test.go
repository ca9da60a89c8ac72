package graph

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/sysgraph"
)

// ledgerUser appends PostingAudit records and reads them back, reading one
// field, through the streams golden's generated package.
const ledgerUser = `package main

import (
	"context"

	"example.com/ledgeruse/ledger"
	"github.com/acemq/acemq-gen/runtime/acemq"
)

func main() {
	ctx := context.Background()
	conn, _ := acemq.Connect(ctx, "memory://ledgeruse")
	_ = ledger.NewPublisher(conn).AppendPostingAudit(ctx, ledger.PostingAudit{AmountCents: 5})
	_, _ = ledger.ReadPostingAudit(ctx, conn, acemq.StreamFirst(), func(_ context.Context, m acemq.Message[ledger.PostingAudit]) acemq.Ack {
		if m.Payload.AmountCents > 0 {
			return acemq.Accept()
		}
		return acemq.Reject(nil)
	})
}
`

// streamModule writes a module using the streams golden's package.
func streamModule(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../../../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	gen, err := os.ReadFile(filepath.Join(root, "testdata/golden/streams/want/ledger/ledger.acemq.go.golden"))
	if err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{
		"go.mod": []byte("module example.com/ledgeruse\n\ngo 1.26.0\n\nrequire github.com/acemq/acemq-gen v0.0.0\n\n" +
			"replace github.com/acemq/acemq-gen => " + root + "\n"),
		"go.sum": sum, "main.go": []byte(ledgerUser), "ledger/ledger.acemq.go": gen,
	}
	for name, data := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// -mod=mod resolves the module's requirements from acemq-gen's go.mod
	// and the go.sum copied above, with nothing fetched (go mod tidy would
	// look for the test dependencies of dependencies too).
	t.Setenv("GOFLAGS", "-mod=mod")
	t.Setenv("GOPROXY", "off")
	return dir
}

func TestAStreamAppendedAndReadIsPublishedAndConsumedWithTheFieldsItsReaderReads(t *testing.T) {
	g := built(t, streamModule(t))
	var appended bool
	for _, s := range g.Services {
		appended = appended || slices.ContainsFunc(s.Publishes, func(u sysgraph.Use) bool {
			return u.Message == "PostingAudit" && u.Kind == "stream"
		})
	}
	if !appended {
		t.Errorf("no service appends PostingAudit: %+v", g.Services)
	}
	u := consumed(t, g, "ledgeruse", "PostingAudit")
	if u.Kind != "stream" || u.Queue != "ledger.posting-audit" || u.AllFields ||
		len(u.Fields) != 1 || u.Fields[0].Field != "amountCents" {
		t.Errorf("the reader's use: %+v; want kind stream on ledger.posting-audit reading amountCents only", u)
	}
}
