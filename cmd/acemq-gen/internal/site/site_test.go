package site

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/sysgraph"
	"github.com/acemq/acemq-gen/generator"
)

const (
	goldens   = "../../../../testdata/golden"
	bookstore = "../../../../examples/bookstore/contracts"
	usageFile = "../../testdata/catalog/bookstore-usage.json"
)

// inputOf reads the contracts of paths into a catalog's input.
func inputOf(t testing.TB, paths ...string) Input {
	t.Helper()
	srcs, err := generator.ReadSources(paths)
	if err != nil {
		t.Fatal(err)
	}
	entries, domains, ds := generator.CatalogContents(srcs)
	if ds.HasErrors() {
		t.Fatalf("%v", ds)
	}
	return Input{Entries: entries, Domains: domains}
}

// bookstoreInput is the bookstore example's contracts with its usage graph.
func bookstoreInput(t testing.TB) Input {
	in := inputOf(t, bookstore)
	g, err := sysgraph.Read(usageFile)
	if err != nil {
		t.Fatal(err)
	}
	in.Usage = g
	return in
}

// goldenDirs are the goldens whose contracts have no error.
func goldenDirs(t testing.TB) []string {
	dirs, _ := filepath.Glob(filepath.Join(goldens, "*"))
	var out []string
	for _, d := range dirs {
		if !strings.HasPrefix(filepath.Base(d), "diag_") {
			out = append(out, d)
		}
	}
	if len(out) < 20 {
		t.Fatalf("found %d goldens", len(out))
	}
	return out
}

func build(t testing.TB, in Input) []File {
	t.Helper()
	files, err := Build(in)
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func fileNamed(files []File, p string) (File, bool) {
	i := slices.IndexFunc(files, func(f File) bool { return f.Path == p })
	if i < 0 {
		return File{}, false
	}
	return files[i], true
}

func TestCatalogBuildsOfTheSameInputsAreByteIdentical(t *testing.T) {
	inputs := map[string]func() Input{"bookstore with usage": func() Input { return bookstoreInput(t) }}
	for _, d := range goldenDirs(t) {
		inputs[filepath.Base(d)] = func() Input { return inputOf(t, d) }
	}
	for name, in := range inputs {
		a, b := build(t, in()), build(t, in())
		if len(a) != len(b) {
			t.Fatalf("%s: %d files, then %d", name, len(a), len(b))
		}
		for i := range a {
			if a[i].Path != b[i].Path || !bytes.Equal(a[i].Data, b[i].Data) {
				t.Errorf("%s: %s differs between two builds", name, a[i].Path)
			}
		}
	}
}

func TestCatalogLinksOfEveryGoldenAndTheBookstoreResolve(t *testing.T) {
	check := func(name string, files []File) {
		for _, f := range files {
			if !strings.HasSuffix(f.Path, ".html") {
				continue
			}
			for _, l := range links(f) {
				if _, ok := fileNamed(files, l); !ok {
					t.Errorf("%s: %s links to %s, which the site does not hold", name, f.Path, l)
				}
			}
		}
	}
	check("bookstore", build(t, bookstoreInput(t)))
	for _, d := range goldenDirs(t) {
		check(filepath.Base(d), build(t, inputOf(t, d)))
	}
}

func TestCatalogMessagePageShowsTheContract(t *testing.T) {
	files := build(t, bookstoreInput(t))
	page, _ := fileNamed(files, "messages/orders/event.OrderPlaced.html")
	for _, want := range []string{
		"<h1>OrderPlaced <span class=\"kind\">event</span></h1>", "A customer placed an order.",
		"<code>json</code>", "<code>application/json</code>", "<dt>Routing key</dt><dd><code>order.placed</code>",
		"<code>exponential(3, 50ms, 1s)</code>", "<li>wait 50ms</li>", "billing.order.placed.dlq", "billing.order.placed.parked",
		"<code>x-bookstore-till</code></th><td>string</td><td>yes</td>",
		`<code>[<a href="../../types/orders/OrderLine.html">OrderLine</a>]</code>`, "<code>giftNote</code></th><td><code>string?</code></td><td>yes</td>",
		"&#34;placedAt&#34;: &#34;2026-01-31T12:00:00.000Z&#34;", "&#34;isbn&#34;: &#34;text&#34;", "<h2 id=\"avro\">Avro schema</h2>",
	} {
		if !strings.Contains(string(page.Data), want) {
			t.Errorf("the OrderPlaced page lacks %q", want)
		}
	}
	typ, _ := fileNamed(files, "types/orders/OrderLine.html")
	if !strings.Contains(string(typ.Data), `href="../../messages/orders/event.OrderPlaced.html"`) {
		t.Errorf("the OrderLine page does not link the message that uses it:\n%s", typ.Data)
	}
}

func TestCatalogTopologyDiagramShowsEveryQueueOfTheDomain(t *testing.T) {
	s, err := newSite(bookstoreInput(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range s.Domains {
		svg := string(d.Diagram)
		if !strings.HasPrefix(svg, `<svg xmlns="http://www.w3.org/2000/svg" class="topology" role="img" aria-label="Topology of the `+d.Name) {
			t.Errorf("%s: the diagram is not an accessible image: %.200s", d.Name, svg)
		}
		var want []string
		for _, q := range d.Queues {
			want = append(want, "queue "+q.Name, "dead-letter queue "+q.DeadLetter, "parked queue "+q.Parked)
		}
		if len(want) < 6 {
			t.Errorf("%s: %d queues", d.Name, len(d.Queues))
		}
		for _, w := range want {
			if !strings.Contains(svg, ">"+w+"</text>") {
				t.Errorf("%s: the diagram lacks %q", d.Name, w)
			}
		}
		if !strings.Contains(svg, ">exchange "+d.Name+" (topic)</text>") {
			t.Errorf("%s: the diagram lacks its exchange", d.Name)
		}
	}
}

func TestCatalogDiagramShowsRetryRungsTheRuntimeDeclares(t *testing.T) {
	in := inputOf(t, bookstore)
	for i := range in.Entries {
		if in.Entries[i].Kind == "command" {
			in.Entries[i].Retry.Initial = 40e9 // past the runtime's threshold: the wait is held on a rung queue
			in.Entries[i].Retry.Max = 120e9
		}
	}
	s, err := newSite(in)
	if err != nil {
		t.Fatal(err)
	}
	d := s.domain("orders")
	if len(d.Queues) == 0 || len(d.Queues[0].Rungs) == 0 {
		t.Fatalf("no rung queue for waits of 40s: %+v", d.Queues)
	}
	for _, r := range d.Queues[0].Rungs {
		if !strings.Contains(string(d.Diagram), ">retry rung "+r+"</text>") {
			t.Errorf("the diagram lacks rung %s", r)
		}
	}
	files := build(t, in)
	page, _ := fileNamed(files, "messages/orders/command.CancelOrder.html")
	if !strings.Contains(string(page.Data), "<li>wait 40s on rung queue <code>orders.cancel-order.retry.40s</code> (held by the broker)</li>") {
		t.Errorf("the CancelOrder page does not name the rung its wait is held on:\n%s", page.Data)
	}
}

func TestCatalogRendersAKindItDoesNotKnowAsItsOwnGroup(t *testing.T) {
	in := inputOf(t, bookstore)
	in.Entries = append(in.Entries, generator.Entry{Kind: "stream", Domain: "orders", Name: "OrderLedger", Queue: "orders.ledger", Doc: "Every order, kept."})
	files := build(t, in)
	index, _ := fileNamed(files, "index.html")
	if !strings.Contains(string(index.Data), `<p class="group">Streams</p>`) || !strings.Contains(string(index.Data), "messages/orders/stream.OrderLedger.html") {
		t.Errorf("the index lacks the stream:\n%s", index.Data)
	}
	if _, ok := fileNamed(files, "messages/orders/stream.OrderLedger.html"); !ok {
		t.Error("no page for the stream")
	}
}

func TestCatalogEscapesHostileContractText(t *testing.T) {
	hostile := "acemq: 1\ndomain: evil\ndoc: \"<script>alert('domain')</script>\"\n" +
		"types:\n  Colour:\n    doc: \"\\\" onmouseover=\\\"alert(1)\"\n    enum: [red, green]\n" +
		"events:\n  OrderPlaced:\n    doc: \"<script>alert(\\\"doc\\\")</script>\"\n    deprecated: \"</pre><img src=x onerror=alert(2)>\"\n" +
		"    fields:\n      note: {type: string, doc: \"<b onclick='x'>&amp;</b>\", default: \"</code><script>x</script>\"}\n      colour: Colour\n"
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "evil.acemq.yaml"), []byte(hostile), 0o644); err != nil {
		t.Fatal(err)
	}
	in := inputOf(t, dir, filepath.Join(goldens, "hostile_text"))
	in.Usage = &sysgraph.Graph{Version: 1, Services: []sysgraph.Service{{Name: "<script>svc</script>\x1b[31m\x00", Module: "m\"<x>",
		Consumes: []sysgraph.Use{{Domain: "evil", Message: "OrderPlaced", Kind: "event", Pos: "a.go:1", Queue: "q<script>",
			Fields: []sysgraph.FieldRead{{Field: "<img src=x>", Pos: []string{"a.go:2"}}}}}}}}
	for _, f := range build(t, in) {
		text := string(f.Data)
		for _, bad := range []string{"<script>alert", "<script>svc", "<script>x", "<img src=x", "<b onclick", `" onmouseover="`, "q<script>"} {
			if strings.Contains(text, bad) {
				t.Errorf("%s holds %q unescaped", f.Path, bad)
			}
		}
	}
	files := build(t, in)
	domain, _ := fileNamed(files, "domains/evil.html")
	svg := string(domain.Data[bytes.Index(domain.Data, []byte("<svg")):])
	if strings.ContainsAny(svg, "\x1b\x00") || !strings.Contains(svg, "service &lt;script&gt;svc&lt;/script&gt;\uFFFD[31m\uFFFD") {
		t.Errorf("the diagram holds control characters or lacks the service's escaped name:\n%s", svg)
	}
	msg, _ := fileNamed(files, "messages/evil/event.OrderPlaced.html")
	if !strings.Contains(string(msg.Data), "&lt;script&gt;alert(&#34;doc&#34;)&lt;/script&gt;") {
		t.Errorf("the doc is not shown escaped:\n%s", msg.Data)
	}
}

func TestCatalogStreamPageShowsItsPayloadAndWhereRecordsAreSetAside(t *testing.T) {
	files := build(t, bookstoreInput(t))
	page, ok := fileNamed(files, "messages/orders/stream.OrderAudit.html")
	if !ok {
		t.Fatal("no page for the OrderAudit stream")
	}
	for _, want := range []string{"Every change to an order", "<code>orderId</code>", "<code>change</code>",
		"orders.order-audit.dlq", "orders.order-audit.parked"} {
		if !strings.Contains(string(page.Data), want) {
			t.Errorf("the OrderAudit page lacks %q", want)
		}
	}
}
