package contractspec_test

import (
	"strings"
	"testing"

	"github.com/acemq/acemq-gen/generator"
	"github.com/acemq/acemq-gen/generator/contractspec"
)

func TestTopologyHoldsTheScheduleLadderWhenAMessageIsSchedulable(t *testing.T) {
	entries, ds := generator.Catalog([]generator.Source{{Path: "jobs.acemq.yaml", Data: []byte(
		"acemq: 1\ndomain: jobs\ncommands:\n  RunJob:\n    schedulable: true\n    fields: {id: string}\n")}})
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	plan := func(entries []generator.Entry) string {
		topo, err := contractspec.Topology(entries, nil)
		if err != nil {
			t.Fatal(err)
		}
		return strings.Join(topo.Plan(), "\n")
	}
	got := plan(entries)
	for _, want := range []string{"declare exchange acemq.schedule (direct", "declare queue acemq.schedule.1h", "x-message-ttl=3600000",
		"declare queue acemq.schedule.due", "bind acemq.schedule -> acemq.schedule.1s (acemq.schedule.1s)"} {
		if !strings.Contains(got, want) {
			t.Errorf("the plan lacks %q:\n%s", want, got)
		}
	}
	entries[0].Schedulable = false
	if got := plan(entries); strings.Contains(got, "acemq.schedule") {
		t.Errorf("a contract with nothing schedulable plans the ladder:\n%s", got)
	}
}
