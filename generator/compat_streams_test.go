package generator

import (
	"fmt"
	"strings"
	"testing"
)

// streamVersion is a contract with one event and one stream, both of payload fields.
func streamVersion(fields string) []Source {
	c := "acemq: 1\ndomain: ledger\nevents:\n  Posted:\n    fields: {" + fields + "}\nstreams:\n  PostingAudit:\n    fields: {" + fields + "}\n"
	return []Source{{Path: "ledger.acemq.yaml", Data: []byte(c)}}
}

func TestCompatStreamNeedsNewReadersToReadOldRecords(t *testing.T) {
	got := fmt.Sprint(Compat(streamVersion("id: string"), streamVersion("id: string, amount: long")))
	if !strings.Contains(got, "PostingAudit") || !strings.Contains(got, "backward compatibility") {
		t.Errorf("a stream whose new readers cannot read old records passes compat: %s", got)
	}
	if strings.Contains(got, "Posted:") {
		t.Errorf("the event, whose old readers ignore the new field, is reported: %s", got)
	}
}

func TestCompatStreamNeedsOldReadersToReadNewRecords(t *testing.T) {
	got := fmt.Sprint(Compat(streamVersion("id: string, amount: long"), streamVersion("id: string")))
	if !strings.Contains(got, "PostingAudit") || !strings.Contains(got, "forward compatibility") {
		t.Errorf("a stream whose old readers cannot read new records passes compat: %s", got)
	}
}

func TestCompatStreamAcceptsAFieldWithADefault(t *testing.T) {
	next := streamVersion(`id: string, memo: {type: string, default: ""}`)
	if ds := Compat(streamVersion("id: string"), next); len(ds) > 0 {
		t.Errorf("a field with a default breaks: %v", ds)
	}
}

func TestCompatStreamRemovedOrRenamedIsABreak(t *testing.T) {
	next := []Source{{Path: "ledger.acemq.yaml", Data: []byte("acemq: 1\ndomain: ledger\nevents:\n  Posted:\n    fields: {id: string}\nstreams:\n  PostingAudit:\n    queue: ledger.audit\n    fields: {id: string}\n")}}
	if got := fmt.Sprint(Compat(streamVersion("id: string"), next)); !strings.Contains(got, `PostingAudit: stream changed from "ledger.posting-audit" to "ledger.audit"`) {
		t.Errorf("a renamed stream: %s", got)
	}
	gone := []Source{{Path: "ledger.acemq.yaml", Data: []byte("acemq: 1\ndomain: ledger\nevents:\n  Posted:\n    fields: {id: string}\n")}}
	if got := fmt.Sprint(Compat(streamVersion("id: string"), gone)); !strings.Contains(got, "PostingAudit: removed") {
		t.Errorf("a removed stream: %s", got)
	}
}
