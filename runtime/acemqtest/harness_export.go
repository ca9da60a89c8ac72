package acemqtest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// HarnessTraceDirEnv names the environment variable of a directory where
// Run writes each scenario's settlement trace, TestName.trace, when the
// scenario ends, so that the traces of a bubble run and of a real broker
// run can be compared (scripts/harness.sh diffs them).
const HarnessTraceDirEnv = "ACEMQ_HARNESS_TRACE_DIR"

// SettlementTrace renders the settlements of the scenario, one a line, in
// order: the queue, the message (numbered by first appearance, ids differ
// between runs), the attempt, the action and the reason. The schedule
// ladder's own queues are left out: its hops depend on the real durations.
// Times are left out too (ExpectSettlements checks them): two runs of the
// same scenario have the same settlement trace.
func (h *Harness) SettlementTrace() string {
	var b strings.Builder
	number := map[string]int{}
	for _, e := range h.Trace() {
		if e.Kind != EventSettled || strings.HasPrefix(e.Queue, "acemq.schedule.") {
			continue
		}
		if number[e.MessageID] == 0 {
			number[e.MessageID] = len(number) + 1
		}
		fmt.Fprintf(&b, "%s message#%d attempt %d %s %q\n", e.Queue, number[e.MessageID], e.Attempt, e.Action, e.Reason)
	}
	return b.String()
}

// exportTrace writes the settlement trace where HarnessTraceDirEnv says.
func (h *Harness) exportTrace() {
	dir := os.Getenv(HarnessTraceDirEnv)
	if dir == "" {
		return
	}
	name := strings.NewReplacer("/", "_", " ", "_").Replace(h.t.Name()) + ".trace"
	if err := os.WriteFile(filepath.Join(dir, name), []byte(h.SettlementTrace()), 0o644); err != nil {
		h.t.Errorf("acemqtest: cannot write the settlement trace: %v", err)
	}
}
