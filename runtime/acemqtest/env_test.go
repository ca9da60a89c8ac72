package acemqtest

import "testing"

func TestBrokerEnvReturnsTheValuesInOrder(t *testing.T) {
	t.Setenv("ACEMQ_X_A", "a")
	t.Setenv("ACEMQ_X_B", "b")
	got := BrokerEnv(t, "", "ACEMQ_X_A", "ACEMQ_X_B")
	if len(got) != 2 || got[0] != "a" || got[1] != "b" {
		t.Fatalf("BrokerEnv = %q", got)
	}
}

// recordingTB records whether a helper skipped or failed.
type recordingTB struct {
	testing.TB
	skipped, failed bool
}

func (r *recordingTB) Helper()      {}
func (r *recordingTB) Skip(...any)  { r.skipped = true }
func (r *recordingTB) Fatal(...any) { r.failed = true }

func TestAMissingBrokerSkipsUnlessRequiredThenFails(t *testing.T) {
	t.Setenv("ACEMQ_X_UNSET", "")
	t.Setenv(RequireBrokerEnv, "")
	r := &recordingTB{TB: t}
	BrokerEnv(r, "hint", "ACEMQ_X_UNSET")
	if !r.skipped || r.failed {
		t.Fatalf("without %s: skipped=%v failed=%v, want a skip", RequireBrokerEnv, r.skipped, r.failed)
	}
	t.Setenv(RequireBrokerEnv, "1")
	r = &recordingTB{TB: t}
	BrokerEnv(r, "hint", "ACEMQ_X_UNSET")
	if !r.failed || r.skipped {
		t.Fatalf("with %s=1: skipped=%v failed=%v, want a failure", RequireBrokerEnv, r.skipped, r.failed)
	}
}
