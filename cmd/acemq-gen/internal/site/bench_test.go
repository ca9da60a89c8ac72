package site

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/sysgraph"
)

// contracts200 writes 4 domains of 25 events and 25 commands each, every
// payload with a nested record, an enum and a header, and returns the
// directory and a usage graph where one service consumes every event.
func contracts200(t testing.TB) (string, *sysgraph.Graph) {
	dir := t.TempDir()
	g := &sysgraph.Graph{Version: sysgraph.Version}
	svc := sysgraph.Service{Name: "reader", Module: "example.com/reader"}
	for d := range 4 {
		var b strings.Builder
		fmt.Fprintf(&b, "acemq: 1\ndomain: d%d\ndoc: Domain %d.\ntypes:\n  Money:\n    fields:\n      cents: long\n      currency: {type: string, default: EUR}\n  Status:\n    enum: [open, closed]\n", d, d)
		for _, kind := range []string{"events", "commands"} {
			fmt.Fprintf(&b, "%s:\n", kind)
			for m := range 25 {
				name := fmt.Sprintf("%sThing%d", strings.ToUpper(kind[:1]), m)
				fmt.Fprintf(&b, "  %s:\n    doc: The %s number %d.\n    headers:\n      x-tenant: {type: string, required: true}\n    fields:\n      id: uuid\n      amount: Money\n      status: Status\n      note: string?\n      tags: [string]\n      at: timestamp-millis\n", name, kind, m)
				if kind == "events" {
					svc.Consumes = append(svc.Consumes, sysgraph.Use{Domain: fmt.Sprintf("d%d", d), Message: name, Kind: "event", Pos: "main.go:1",
						Fields: []sysgraph.FieldRead{{Field: "id", Pos: []string{"main.go:2"}}, {Field: "amount.cents", Pos: []string{"main.go:3"}}}})
				}
			}
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("d%d.acemq.yaml", d)), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	g.Services = []sysgraph.Service{svc}
	return dir, g
}

// build200 reads the contracts of dir and builds their catalog.
func build200(t testing.TB, dir string, g *sysgraph.Graph) []File {
	in := inputOf(t, dir)
	in.Usage = g
	if n := len(in.Entries); n != 200 {
		t.Fatalf("%d messages", n)
	}
	return build(t, in)
}

func TestCatalogOf200MessagesBuildsUnder2sAndWeighsUnder2MB(t *testing.T) {
	dir, g := contracts200(t)
	start := time.Now()
	files := build200(t, dir, g)
	took := time.Since(start)
	size := 0
	for _, f := range files {
		size += len(f.Data)
	}
	t.Logf("200 messages: %d files, %d bytes, built in %s", len(files), size, took)
	if took > 2*time.Second {
		t.Errorf("built in %s; want under 2s", took)
	}
	if size > 2<<20 {
		t.Errorf("weighs %d bytes; want under 2 MB", size)
	}
}

func BenchmarkCatalog200Messages(b *testing.B) {
	dir, g := contracts200(b)
	for b.Loop() {
		build200(b, dir, g)
	}
}
