package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// commitMsg writes files and commits them with subject.
func (r gitRepo) commitMsg(subject string, files map[string]string) {
	r.t.Helper()
	r.commit(files)
	r.git("commit", "-q", "--amend", "-m", subject)
}

// short is the short hash of rev.
func (r gitRepo) short(rev string) string {
	r.t.Helper()
	out, err := exec.Command("git", "-C", r.dir, "rev-parse", "--short", rev).Output()
	if err != nil {
		r.t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}

const (
	noteRequired = "orderId: uuid\nnote: string"
	noteDefault  = "orderId: uuid\nnote: {type: string, default: none}"
	noteRemoved  = "orderId: uuid"
)

func TestCompatHistoryNamesTheOlderCommitABreakReaches(t *testing.T) {
	r := newGitRepo(t)
	r.commitMsg("orders v1", map[string]string{"contracts/orders.acemq.yaml": compatContract(noteRequired, commandV1)})
	first := r.short("HEAD")
	r.commitMsg("note gets a default", map[string]string{"contracts/orders.acemq.yaml": compatContract(noteDefault, commandV1)})
	contracts := filepath.Join(r.dir, "contracts")
	writeText(t, filepath.Join(contracts, "orders.acemq.yaml"), compatContract(noteRemoved, commandV1))
	if code, _, errOut := cli(t, "compat", "--against", "git:HEAD", contracts); code != exitOK {
		t.Fatalf("against the last commit only: exit %d, stderr:\n%s", code, errOut)
	}
	code, _, errOut := cli(t, "compat", "--history", contracts)
	if code != exitFindings || !strings.Contains(errOut, "OrderPlaced: note: removed") ||
		!strings.Contains(errOut, `(against commit `+first+` "orders v1")`) || strings.Contains(errOut, "note gets a default") {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut)
	}
}

func TestCompatHistoryFollowsRenames(t *testing.T) {
	r := newGitRepo(t)
	r.commitMsg("sales v1", map[string]string{"contracts/sales.acemq.yaml": compatContract(noteRequired, commandV1)})
	first := r.short("HEAD")
	r.git("mv", "contracts/sales.acemq.yaml", "contracts/orders.acemq.yaml")
	r.git("commit", "-q", "-m", "rename the contract")
	r.commitMsg("note gets a default", map[string]string{"contracts/orders.acemq.yaml": compatContract(noteDefault, commandV1)})
	contracts := filepath.Join(r.dir, "contracts")
	writeText(t, filepath.Join(contracts, "orders.acemq.yaml"), compatContract(noteRemoved, commandV1))
	code, _, errOut := cli(t, "compat", "--history", filepath.Join(contracts, "orders.acemq.yaml"))
	if code != exitFindings || !strings.Contains(errOut, `OrderPlaced: note: removed`) || !strings.Contains(errOut, first+` "sales v1"`) {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut)
	}
}

func TestCompatHistorySinceSkipsOlderCommits(t *testing.T) {
	r := newGitRepo(t)
	r.commitMsg("orders v1", map[string]string{"contracts/orders.acemq.yaml": compatContract(noteRequired, commandV1)})
	r.commitMsg("note gets a default", map[string]string{"contracts/orders.acemq.yaml": compatContract(noteDefault, commandV1)})
	r.commitMsg("docs", map[string]string{"README.md": "orders"})
	contracts := filepath.Join(r.dir, "contracts")
	writeText(t, filepath.Join(contracts, "orders.acemq.yaml"), compatContract(noteRemoved, commandV1))
	code, out, errOut := cli(t, "compat", "--history", "--since", "HEAD~1", contracts)
	if code != exitOK || !strings.Contains(out, "checked against 1 commit of history; nothing breaks") {
		t.Fatalf("since the default: exit %d, stdout %q, stderr:\n%s", code, out, errOut)
	}
	if code, _, errOut := cli(t, "compat", "--history", "--since", "HEAD~2", contracts); code != exitFindings || !strings.Contains(errOut, `"orders v1"`) {
		t.Fatalf("since v1: exit %d, stderr:\n%s", code, errOut)
	}
}

func TestCompatHistoryCommandRulesApplyToEveryVersion(t *testing.T) {
	r := newGitRepo(t)
	r.commitMsg("charge in long cents", map[string]string{"orders.acemq.yaml": compatContract(eventV1, commandV1)})
	r.commitMsg("memo dropped", map[string]string{"orders.acemq.yaml": compatContract(eventV1, edit(commandV1, "\nmemo: string", ""))})
	writeText(t, filepath.Join(r.dir, "orders.acemq.yaml"), compatContract(eventV1, edit(edit(commandV1, "\nmemo: string", ""), "cents: long", "cents: int")))
	code, _, errOut := cli(t, "compat", "--history", r.dir)
	if code != exitFindings || strings.Count(errOut, "ChargeCard: cents: type changed from long to int") != 2 {
		t.Fatalf("a command's long became int breaks both versions' writers: exit %d, stderr:\n%s", code, errOut)
	}
}

func TestCompatHistoryUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"compat", "--history", "--against", "git:HEAD", "x"},
		{"compat", "--since", "HEAD", "--against", "git:HEAD", "x"},
		{"compat", "--history"},
	} {
		if code, _, _ := cli(t, args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
		}
	}
	r := newGitRepo(t)
	r.commit(map[string]string{"orders.acemq.yaml": compatContract(eventV1, commandV1)})
	if code, _, errOut := cli(t, "compat", "--history", "--since", "no-such-rev", r.dir); code != exitUsage || !strings.Contains(errOut, "no-such-rev") {
		t.Errorf("an unknown --since: exit %d: %s", code, errOut)
	}
}

// streamContract is a ledger whose stream PostingAudit has fields.
func streamContract(fields string) string {
	return "acemq: 1\ndomain: ledger\nstreams:\n  PostingAudit:\n    fields: {" + fields + "}\n"
}

func TestCompatHistoryStreamRecordsOfEveryVersionStayReadable(t *testing.T) {
	r := newGitRepo(t)
	r.commitMsg("audit v1", map[string]string{"ledger.acemq.yaml": streamContract("id: string")})
	first := r.short("HEAD")
	r.commitMsg("memo with a default", map[string]string{"ledger.acemq.yaml": streamContract(`id: string, memo: {type: string, default: ""}`)})
	writeText(t, filepath.Join(r.dir, "ledger.acemq.yaml"), streamContract("id: string, memo: string"))
	code, _, errOut := cli(t, "compat", "--history", r.dir)
	if code != exitFindings || !strings.Contains(errOut, "PostingAudit") || !strings.Contains(errOut, first+` "audit v1"`) ||
		!strings.Contains(errOut, "backward compatibility") {
		t.Fatalf("records appended by v1 have no memo, which the new readers require: exit %d, stderr:\n%s", code, errOut)
	}
}
