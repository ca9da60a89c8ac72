package generator

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// streamContract is a domain with one command and one stream.
const streamContract = `acemq: 1
domain: ledger
commands:
  ClosePeriod:
    fields: {period: string}
streams:
  PostingAudit:
    max-age: 7d
    max-bytes: 10000000000
    segment-bytes: 100000000
    headers:
      x-tenant: {required: true}
    fields: {postingId: uuid}
`

func streamSources(contract string) []Source {
	return []Source{{Path: "ledger.acemq.yaml", Data: []byte(contract)}}
}

func TestStreamContractResolvesNameQueueAndRetention(t *testing.T) {
	m, ds := build(streamSources(streamContract))
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	s := m.Domains[0].Streams
	if len(s) != 1 || len(m.Domains[0].Messages) != 1 {
		t.Fatalf("streams %v, messages %v", s, m.Domains[0].Messages)
	}
	want := retention{MaxAge: 7 * 24 * time.Hour, MaxBytes: 10_000_000_000, SegmentBytes: 100_000_000}
	if s[0].Queue != "ledger.posting-audit" || s[0].Retention != want || !s[0].Mandatory || s[0].Kind != streamKind {
		t.Errorf("stream %+v", s[0])
	}
}

func TestStreamBadValuesAreAllReportedAtTheirPositions(t *testing.T) {
	bad := strings.NewReplacer("max-age: 7d", "max-age: 1500ms", "max-bytes: 10000000000", "max-bytes: 0",
		"segment-bytes: 100000000", "segmnt-bytes: 5").Replace(streamContract)
	_, ds := build(streamSources(bad))
	got := fmt.Sprint(ds.Errors())
	for _, want := range []string{
		`ledger.acemq.yaml:8:14: bad max-age "1500ms": whole seconds`,
		`ledger.acemq.yaml:9:16: bad max-bytes 0: a positive number of bytes`,
		`ledger.acemq.yaml:10:5: unknown key "segmnt-bytes" in stream PostingAudit; did you mean "segment-bytes"?`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("diagnostics lack %q:\n%s", want, got)
		}
	}
}

func TestStreamQueueCollidingWithAGeneratedQueueIsRefused(t *testing.T) {
	bad := strings.Replace(streamContract, "max-age: 7d", "queue: ledger.close-period.parked", 1)
	_, ds := build(streamSources(bad))
	if got := fmt.Sprint(ds.Errors()); !strings.Contains(got, `stream PostingAudit: queue "ledger.close-period.parked"`) ||
		!strings.Contains(got, "command ClosePeriod") {
		t.Errorf("diagnostics %s", got)
	}
}

func TestStreamNameCollidingWithAnEventIsRefused(t *testing.T) {
	bad := strings.Replace(streamContract, "commands:\n  ClosePeriod:", "events:\n  PostingAudit:", 1)
	_, ds := build(streamSources(bad))
	if got := fmt.Sprint(ds.Errors()); !strings.Contains(got, "PostingAudit is already declared") {
		t.Errorf("diagnostics %s", got)
	}
}

func TestStreamGeneratesAppendReadDeclareAndTopology(t *testing.T) {
	res := Generate(streamSources(streamContract))
	if res.Diagnostics.HasErrors() || len(res.Files) != 1 {
		t.Fatalf("%v", res.Diagnostics)
	}
	src := string(res.Files[0].Data)
	for _, want := range []string{
		"var postingAuditSpec = &acemqimpl.StreamSpec[PostingAudit]{",
		"func (p *Publisher) AppendPostingAudit(\n\tctx context.Context,\n\tm PostingAudit,\n\topts ...acemq.EnvelopeOption,\n) error {",
		"func (p *Publisher) AppendPostingAuditAsync(",
		") (*acemq.Pending, error) {",
		"func ReadPostingAudit(\n\tctx context.Context,\n\tconn *acemq.Conn,\n\tfrom acemq.StreamPosition,\n\th acemq.Handler[PostingAudit],\n\topts ...acemq.ConsumeOption,\n) (*acemq.Consumer, error) {",
		"func DeclarePostingAudit(ctx context.Context, conn *acemq.Conn) error {",
		"MaxAge:       168 * time.Hour,",
		"acemqimpl.Topology(Exchange, closePeriodSpec, postingAuditSpec)",
	} {
		if !strings.Contains(src, want) {
			t.Errorf("generated code lacks %q", want)
		}
	}
}

func TestCatalogHasAStreamEntryWithItsRetention(t *testing.T) {
	entries, ds := Catalog(streamSources(streamContract))
	if ds.HasErrors() || len(entries) != 2 {
		t.Fatalf("Catalog = %+v, %v", entries, ds)
	}
	s := entries[1]
	if s.Kind != "stream" || s.Queue != "ledger.posting-audit" || s.RoutingKey != "ledger.posting-audit" || s.Exchange != "" ||
		s.Retention.MaxAge != 7*24*time.Hour || s.Retention.MaxBytes != 10_000_000_000 || len(s.Headers) != 1 || !s.Mandatory {
		t.Errorf("stream entry %+v", s)
	}
}

func TestAsyncAPIStreamIsAChannelOfQueueTypeStreamWithItsRetention(t *testing.T) {
	doc := asyncapiJSON(t, "streams", "ledger")
	ch := at(t, doc, "channels", "PostingAudit")
	if at(t, ch, "x-queue-type") != "stream" || at(t, ch, "bindings", "amqp", "queue", "name") != "ledger.posting-audit" {
		t.Errorf("channel %v", ch)
	}
	if got := at(t, ch, "x-acemq-retention", "x-max-age"); got != "7D" {
		t.Errorf("x-max-age %v", got)
	}
	if at(t, doc, "operations", "appendPostingAudit", "action") != "send" || at(t, doc, "operations", "readPostingAudit", "action") != "receive" {
		t.Error("the stream lacks its append and read operations")
	}
	if got := at(t, doc, "components", "messages", "PostingAudit", "x-acemq-kind"); got != "stream" {
		t.Errorf("x-acemq-kind %v", got)
	}
}
