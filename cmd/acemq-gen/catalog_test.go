package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const bookstoreContracts = "../../examples/bookstore/contracts"

func TestCatalogCheckCatchesAStaleSite(t *testing.T) {
	dir := t.TempDir()
	if code, _, errOut := cli(t, "catalog", "-o", dir, bookstoreContracts); code != exitOK {
		t.Fatalf("catalog: exit %d, stderr:\n%s", code, errOut)
	}
	if code, _, errOut := cli(t, "catalog", "--check", "-o", dir, bookstoreContracts); code != exitOK {
		t.Fatalf("--check of a fresh site: exit %d, stderr:\n%s", code, errOut)
	}
	page := filepath.Join(dir, "messages", "orders", "event.OrderPlaced.html")
	stale := []struct {
		name   string
		change func()
		want   string
	}{
		{"an edited page", func() { writeText(t, page, "<p>old</p>") }, "differs from what generate would write"},
		{"a missing page", func() { os.Remove(page) }, "is missing"},
		{"a page no message has", func() { writeText(t, filepath.Join(dir, "messages", "orders", "event.Gone.html"), "x") }, "event.Gone.html is not part of the catalog"},
	}
	for _, s := range stale {
		if code, _, errOut := cli(t, "catalog", "-o", dir, bookstoreContracts); code != exitOK {
			t.Fatalf("rewriting: exit %d, stderr:\n%s", code, errOut)
		}
		s.change()
		code, _, errOut := cli(t, "catalog", "--check", "-o", dir, bookstoreContracts)
		if code != exitFindings || !strings.Contains(errOut, s.want) || !strings.Contains(errOut, "run acemq-gen catalog") {
			t.Errorf("%s: exit %d, stderr:\n%s\nwant 1 and %q", s.name, code, errOut, s.want)
		}
	}
	if code, _, _ := cli(t, "catalog", "-o", dir, bookstoreContracts); code != exitOK {
		t.Fatal("rewriting failed")
	}
	if _, err := os.Stat(filepath.Join(dir, "messages", "orders", "event.Gone.html")); !os.IsNotExist(err) {
		t.Errorf("catalog left a page no message has: %v", err)
	}
}

func TestCatalogFlagsAreCheckedBeforeAnythingIsWritten(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"catalog", bookstoreContracts}, "name the site's directory with -o DIR"},
		{[]string{"catalog", "-o", t.TempDir()}, "name at least one contract file or directory"},
		{[]string{"catalog", "-o", t.TempDir(), "--since", "HEAD", bookstoreContracts}, "--since needs --history"},
		{[]string{"catalog", "-o", t.TempDir(), "--usage", filepath.Join(t.TempDir(), "none.json"), bookstoreContracts}, "usage graph"},
	} {
		code, _, errOut := cli(t, c.args...)
		if code != exitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("%q: exit %d, stderr:\n%s\nwant 2 and %q", c.args, code, errOut, c.want)
		}
	}
}

func TestCatalogUsageShowsTheServicesThatPublishAndConsumeWithTheFieldsTheyRead(t *testing.T) {
	dir := t.TempDir()
	code, _, errOut := cli(t, "catalog", "-o", dir, "--usage", "testdata/catalog/bookstore-usage.json", bookstoreContracts)
	if code != exitOK {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut)
	}
	domain := readText(t, filepath.Join(dir, "domains", "orders.html"))
	for _, want := range []string{"queue billing.order.placed", "service billing", "OrderPlaced reads: orderId, lines.isbn,", "service shop", "publishes OrderPlaced"} {
		if !strings.Contains(domain, want) {
			t.Errorf("the orders diagram lacks %q", want)
		}
	}
	msg := readText(t, filepath.Join(dir, "messages", "orders", "event.OrderPlaced.html"))
	for _, want := range []string{`href="../../services/billing.html"`, "billing.order.placed.dlq", "orderId, lines.isbn, lines.quantity"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the OrderPlaced page lacks %q", want)
		}
	}
	svc := readText(t, filepath.Join(dir, "services", "billing.html"))
	if !strings.Contains(svc, `href="../messages/orders/event.OrderPlaced.html"`) || !strings.Contains(svc, "sends") {
		t.Errorf("the billing page does not link its messages:\n%s", svc)
	}
}

func TestCatalogHistoryListsEachVersionWithTheCompatVerdictAndTheCommit(t *testing.T) {
	r := newGitRepo(t)
	r.commitMsg("orders v1", map[string]string{"contracts/orders.acemq.yaml": compatContract(noteRequired, commandV1)})
	first := r.short("HEAD")
	r.commitMsg("note removed", map[string]string{"contracts/orders.acemq.yaml": compatContract(noteRemoved, commandV1)})
	second := r.short("HEAD")
	r.commitMsg("note back with a default", map[string]string{"contracts/orders.acemq.yaml": compatContract(noteDefault, commandV1)})
	third := r.short("HEAD")
	dir := t.TempDir()
	code, _, errOut := cli(t, "catalog", "-o", dir, "--history", filepath.Join(r.dir, "contracts"))
	if code != exitOK {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut)
	}
	page := readText(t, filepath.Join(dir, "messages", "orders", "event.OrderPlaced.html"))
	i3, i2, i1 := strings.Index(page, third), strings.Index(page, second), strings.Index(page, first)
	if i3 < 0 || i2 < i3 || i1 < i2 {
		t.Fatalf("want the three commits newest first (%s, %s, %s):\n%s", third, second, first, page)
	}
	for _, want := range []string{`verdict-breaking">breaking`, "OrderPlaced: note: removed", `verdict-compatible">compatible`, `verdict-added">added`, "note back with a default"} {
		if !strings.Contains(page, want) {
			t.Errorf("the history lacks %q", want)
		}
	}
	cmd := readText(t, filepath.Join(dir, "messages", "orders", "command.ChargeCard.html"))
	if strings.Contains(cmd, third) || !strings.Contains(cmd, first) {
		t.Errorf("ChargeCard never changed after %s; its history:\n%s", first, cmd)
	}
	code, _, errOut = cli(t, "catalog", "-o", dir, "--history", "--since", "HEAD", filepath.Join(r.dir, "contracts"))
	if page = readText(t, filepath.Join(dir, "messages", "orders", "event.OrderPlaced.html")); code != exitOK || strings.Contains(page, first) {
		t.Errorf("--since HEAD: exit %d, stderr %s; the page still names %s", code, errOut, first)
	}
}

func TestCatalogRemovesNothingItDidNotWrite(t *testing.T) {
	dir := t.TempDir()
	own := filepath.Join(dir, "assets", "logo.svg")
	if err := os.MkdirAll(filepath.Dir(own), 0o755); err != nil {
		t.Fatal(err)
	}
	writeText(t, own, "<svg/>")
	for range 2 {
		if code, _, errOut := cli(t, "catalog", "-o", dir, bookstoreContracts); code != exitOK {
			t.Fatalf("catalog: exit %d, stderr:\n%s", code, errOut)
		}
		if _, err := os.Stat(own); err != nil {
			t.Fatalf("a file under assets/ the catalog did not write is gone: %v", err)
		}
		os.Remove(filepath.Join(dir, ".acemq-catalog")) // as a directory no catalog was written to
	}
}
