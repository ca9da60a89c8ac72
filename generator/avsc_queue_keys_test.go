package generator

import (
	"strings"
	"testing"
)

// The queue keys of a YAML message are the acemq properties of an .avsc
// record too, on a command and on an rpc request.
func TestAvscRecordsTakeTheQueueKeys(t *testing.T) {
	cmd := `{"type":"record","name":"RunJob","namespace":"com.example.jobs",
 "acemq":{"kind":"command","domain":"jobs","delivery-limit":4,"leader-locator":"balanced",
  "dead-letter-strategy":"at-least-once","set-aside-queues":"quorum"},
 "fields":[{"name":"jobId","type":"string"}]}`
	req := `{"type":"record","name":"JobStatusRequest","namespace":"com.example.jobs",
 "acemq":{"kind":"rpc-request","domain":"jobs","codec":"json","delivery-limit":2,"set-aside-queues":"quorum"},
 "fields":[{"name":"jobId","type":"string"}]}`
	resp := `{"type":"record","name":"JobStatusResponse","namespace":"com.example.jobs",
 "acemq":{"kind":"rpc-response","domain":"jobs"},"fields":[{"name":"done","type":"boolean"}]}`
	res := Generate([]Source{{Path: "run.avsc", Data: []byte(cmd)}, {Path: "req.avsc", Data: []byte(req)},
		{Path: "resp.avsc", Data: []byte(resp)}}, ImportPath("example.com/gen"))
	if res.Diagnostics.HasErrors() {
		t.Fatal(res.Diagnostics)
	}
	var code string
	for _, f := range res.Files {
		code += string(f.Data)
	}
	for _, want := range []string{
		"DeliveryLimit: 4,", "LeaderLocator: acemq.LeaderBalanced,", "AtLeastOnceDeadLettering: true,",
		"DeliveryLimit: 2, SetAside: acemq.QueueQuorum",
	} {
		if !strings.Contains(strings.Join(strings.Fields(code), " "), want) {
			t.Errorf("the generated code lacks %s", want)
		}
	}
	bad := strings.Replace(cmd, `"balanced"`, `"random"`, 1)
	ds := Vet([]Source{{Path: "run.avsc", Data: []byte(bad)}})
	if len(ds) != 1 || !strings.Contains(ds[0].String(), `run.avsc:2:`) || !strings.Contains(ds[0].Message, `leader-locator must be client-local or balanced`) {
		t.Fatalf("a bad leader-locator in an .avsc: %v", ds)
	}
}
