package generator

import (
	"strings"
	"testing"
)

// ladderContract is a domain with one schedulable event and, when ladder
// is not empty, its file's schedule-ladder key.
func ladderContract(domain, ladder string) Source {
	src := "acemq: 1\ndomain: " + domain + "\n"
	if ladder != "" {
		src += "schedule-ladder: " + ladder + "\n"
	}
	src += "events:\n  Reminded:\n    schedulable: true\n    fields: {id: string}\n"
	return Source{Path: domain + ".acemq.yaml", Data: []byte(src)}
}

// TestScheduleLadderKeyDeclaresAQuorumLadder: schedule-ladder: quorum
// makes the generated Topology and the catalog's Entry declare quorum
// rungs; without the key the ladder is classic, as the family's.
func TestScheduleLadderKeyDeclaresAQuorumLadder(t *testing.T) {
	for ladder, want := range map[string]string{"quorum": "QueueQuorum", "classic": "QueueClassic", "": "QueueClassic"} {
		res := Generate([]Source{ladderContract("alerts", ladder)})
		if len(res.Diagnostics) > 0 || len(res.Files) == 0 {
			t.Fatalf("%q: %s", ladder, stderrOf(res.Diagnostics))
		}
		if code := string(res.Files[0].Data); !strings.Contains(code, "ScheduleLadder(acemq."+want+")") {
			t.Errorf("%q: the generated Topology does not declare ScheduleLadder(acemq.%s)", ladder, want)
		}
		entries, ds := Catalog([]Source{ladderContract("alerts", ladder)})
		if len(ds) > 0 || len(entries) != 1 || entries[0].ScheduleLadder != strings.ToLower(strings.TrimPrefix(want, "Queue")) {
			t.Errorf("%q: catalog %+v %s", ladder, entries, stderrOf(ds))
		}
	}
}

// TestScheduleLadderKeyRefusesAnUnknownTypeWithItsPosition: a value that is
// not a queue type is a file:line:col diagnostic naming the allowed ones.
func TestScheduleLadderKeyRefusesAnUnknownTypeWithItsPosition(t *testing.T) {
	res := Generate([]Source{ladderContract("alerts", "mirrored")})
	want := `alerts.acemq.yaml:3:18: schedule-ladder must be classic or quorum`
	if got := stderrOf(res.Diagnostics); !strings.Contains(got, want) {
		t.Fatalf("diagnostics:\n%s\nwant %q", got, want)
	}
}

// TestScheduleLadderDisagreementAcrossContractsIsRefused: the ladder is one
// set of queues per virtual host, so two contracts of a run that want it
// of two types are refused at the later message, naming the first.
func TestScheduleLadderDisagreementAcrossContractsIsRefused(t *testing.T) {
	res := Generate([]Source{ladderContract("alerts", "quorum"), ladderContract("billing", "")})
	got := stderrOf(res.Diagnostics)
	if !strings.Contains(got, "billing.acemq.yaml:") || !strings.Contains(got, "its schedule ladder is classic but Reminded's at alerts.acemq.yaml:") {
		t.Fatalf("diagnostics:\n%s", got)
	}
}

// TestScheduleLadderKeyWithoutASchedulableMessageIsAWarning: the key in a
// domain that schedules nothing would be ignored; vet says so, at the key.
func TestScheduleLadderKeyWithoutASchedulableMessageIsAWarning(t *testing.T) {
	src := "acemq: 1\ndomain: alerts\nschedule-ladder: quorum\nevents:\n  Raised:\n    fields: {id: string}\n"
	ds := Vet([]Source{{Path: "alerts.acemq.yaml", Data: []byte(src)}})
	want := "alerts.acemq.yaml:3:18: warning: schedule-ladder has no effect"
	if got := stderrOf(ds); !strings.Contains(got, want) || ds.HasErrors() {
		t.Fatalf("vet:\n%s\nwant the warning %q and no error", got, want)
	}
}
