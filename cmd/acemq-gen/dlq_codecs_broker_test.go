package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	dlqop "github.com/acemq/acemq-gen/cmd/acemq-gen/internal/dlq"
	"github.com/acemq/acemq-gen/runtime/acemq"
)

// crate is the payload of codecContract's PackCrate, with a root name for XML.
type crate struct {
	XMLName struct{} `xml:"PackCrate" json:"-" yaml:"-" toml:"-"`
	CrateID string   `json:"crateId" xml:"crateId" yaml:"crateId" toml:"crateId"`
	Label   string   `json:"label" xml:"label" yaml:"label" toml:"label"`
}

const codecContract = `acemq: 1
domain: DOMAIN
retry: {attempts: 1, backoff: fixed, initial: 1s}
commands:
  PackCrate:
    codec: CODEC
    fields: {crateId: string, label: string}
`

func TestDLQShowReadsXML(t *testing.T)  { dlqReadsCodec(t, "xml") }
func TestDLQShowReadsYAML(t *testing.T) { dlqReadsCodec(t, "yaml") }
func TestDLQShowReadsTOML(t *testing.T) { dlqReadsCodec(t, "toml") }

// dlqReadsCodec dead-letters a message of a command whose contract codec is
// codec, then lists it, shows it decoded and redrives it to the fixed
// handler: dlq reads every codec the contract may name, through the codec
// registry.
func dlqReadsCodec(t *testing.T, codec string) {
	r := newOpsRig(t, strings.Replace(codecContract, "CODEC", codec, 1))
	ctx := context.Background()
	if err := mustTopology(t, r).Apply(ctx, r.conn); err != nil {
		t.Fatal(err)
	}
	e := r.entry("PackCrate")
	c, err := acemq.CodecByName(codec)
	if err != nil {
		t.Fatal(err)
	}
	h := &handlers{}
	r.consume(e.Queue, h.handle(func(map[string]any) acemq.Ack {
		return acemq.Reject(acemq.Fatalf("the crate is lost"))
	}), acemq.ConsumeWith(c))
	p := acemq.NewPublisher[crate](r.conn, e.Exchange, e.RoutingKey, acemq.PublishWith[crate](c))
	if err := p.Send(ctx, crate{CrateID: "c-7", Label: "fragile"}); err != nil {
		t.Fatal(err)
	}
	queue := acemq.DeadLetterQueue(e.Queue)
	r.waitCount(queue, 1)

	code, out, errOut := r.cli("dlq", "list", "--url", r.url, r.dir)
	if want := `command PackCrate`; code != exitOK || !strings.Contains(collapse(out), want) {
		t.Fatalf("dlq list: exit %d, want a group %q:\n%s%s", code, want, out, errOut)
	}
	code, out, errOut = r.cli("dlq", "show", "--url", r.url, queue, r.dir)
	var shown []dlqop.Shown
	if code != exitOK || json.Unmarshal([]byte(out), &shown) != nil || len(shown) != 1 {
		t.Fatalf("dlq show: exit %d, want one message:\n%s%s", code, out, errOut)
	}
	m, _ := shown[0].Payload.(map[string]any)
	if m["crateId"] != "c-7" || m["label"] != "fragile" || shown[0].Note != "" {
		t.Fatalf("dlq show of a %s message: payload %v, note %q; want crateId c-7, label fragile", codec, shown[0].Payload, shown[0].Note)
	}
	h.fix()
	code, out, errOut = r.cli("dlq", "redrive", "--url", r.url, "--where", "crateId=c-7", queue, r.dir)
	if code != exitOK || !strings.Contains(out, "moved 1 in all") {
		t.Fatalf("dlq redrive --where crateId=c-7: exit %d: %s%s", code, out, errOut)
	}
	waitAccepted(t, h, 1)
	r.waitCount(queue, 0)
}
