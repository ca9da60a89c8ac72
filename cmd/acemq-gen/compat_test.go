package main

import (
	"cmp"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// compatContract is an orders contract with one event and one command,
// their fields given as YAML lines (two spaces in from fields:).
func compatContract(eventFields, commandFields string) string {
	return "acemq: 1\ndomain: orders\nevents:\n  OrderPlaced:\n    fields:\n" + indent(eventFields) +
		"commands:\n  ChargeCard:\n    fields:\n" + indent(commandFields)
}

func indent(lines string) string {
	var b strings.Builder
	for l := range strings.SplitSeq(strings.TrimSpace(lines), "\n") {
		b.WriteString("      " + strings.TrimSpace(l) + "\n")
	}
	return b.String()
}

// compatDirs writes base and next contracts into two directories and
// returns them.
func compatDirs(t *testing.T, base, next string) (string, string) {
	t.Helper()
	root := t.TempDir()
	b, n := filepath.Join(root, "base"), filepath.Join(root, "next")
	for dir, text := range map[string]string{b: base, n: next} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		writeText(t, filepath.Join(dir, "orders.acemq.yaml"), text)
	}
	return b, n
}

const (
	eventV1   = "orderId: uuid\ntotal: long\ncount: int\nnote: string"
	commandV1 = "orderId: uuid\ncents: long\ncount: int\nmemo: string"
)

// edit returns v1 with old replaced by repl.
func edit(v1, old, repl string) string { return strings.Replace(v1, old, repl, 1) }

func TestCompatDirectionRules(t *testing.T) {
	cases := []struct {
		name          string
		event, cmd    string
		baseCmd       string // commandV1 when empty
		full          bool
		wantCode      int
		wantInMessage []string
	}{
		{name: "unchanged contract passes", event: eventV1, cmd: commandV1, wantCode: exitOK},
		{name: "event dropping a field its old readers need without a default is refused",
			event: edit(eventV1, "\nnote: string", ""), cmd: commandV1, wantCode: exitFindings,
			wantInMessage: []string{"OrderPlaced: note: removed, but it has no default in BASE", "rule: an event must stay readable by consumers built from BASE: forward compatibility"}},
		{name: "event whose long became int passes because old readers promote it",
			event: edit(eventV1, "total: long", "total: int"), cmd: commandV1, wantCode: exitOK},
		{name: "event whose int became long is refused",
			event: edit(eventV1, "count: int", "count: long"), cmd: commandV1, wantCode: exitFindings,
			wantInMessage: []string{"OrderPlaced: count: type changed from int to long", "cannot read a written long as int", "forward compatibility"}},
		{name: "event gaining a field without a default passes because old readers skip it",
			event: eventV1 + "\nextra: string", cmd: commandV1, wantCode: exitOK},
		{name: "command gaining a field without a default is refused",
			event: eventV1, cmd: commandV1 + "\nreason: string", wantCode: exitFindings,
			wantInMessage: []string{"ChargeCard: reason: added without a default", "rule: a command must stay readable when sent by producers built from BASE: backward compatibility"}},
		{name: "command gaining a field with a default passes",
			event: eventV1, cmd: commandV1 + "\nreason: {type: string, default: none}", wantCode: exitOK},
		{name: "command dropping a field passes",
			event: eventV1, cmd: edit(commandV1, "\nmemo: string", ""), wantCode: exitOK},
		{name: "command whose long field became int is refused",
			event: eventV1, cmd: edit(commandV1, "cents: long", "cents: int"), wantCode: exitFindings,
			wantInMessage: []string{"ChargeCard: cents: type changed from long to int", "cannot read a written long as int", "backward compatibility"}},
		{name: "command whose int field became long passes",
			event: eventV1, cmd: edit(commandV1, "count: int", "count: long"), wantCode: exitOK},
		{name: "full refuses a command that drops a field BASE readers need",
			event: eventV1, cmd: edit(commandV1, "\nmemo: string", ""), full: true, wantCode: exitFindings,
			wantInMessage: []string{"ChargeCard: memo: removed, but it has no default in BASE", "--full", "forward compatibility"}},
		{name: "full refuses an event whose long became int",
			event: edit(eventV1, "total: long", "total: int"), cmd: commandV1, full: true, wantCode: exitFindings,
			wantInMessage: []string{"OrderPlaced: total: type changed from long to int", "--full", "backward compatibility"}},
		{name: "full passes fields added with defaults",
			event: eventV1 + "\nextra: {type: string, default: x}", cmd: commandV1 + "\nreason: {type: string, default: none}",
			full: true, wantCode: exitOK},
		{name: "event field that became optional is refused",
			event: edit(eventV1, "note: string", "note: string?"), cmd: commandV1, wantCode: exitFindings,
			wantInMessage: []string{"OrderPlaced: note: type changed from string to optional string", "written null as string"}},
		{name: "command field that became optional passes",
			event: eventV1, cmd: edit(commandV1, "memo: string", "memo: string?"), wantCode: exitOK},
		{name: "command field that became required is refused",
			baseCmd: edit(commandV1, "memo: string", "memo: string?"), event: eventV1, cmd: commandV1, wantCode: exitFindings,
			wantInMessage: []string{"ChargeCard: memo: type changed from optional string to string", "written null as string"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			baseCmd := cmp.Or(c.baseCmd, commandV1)
			base, next := compatDirs(t, compatContract(eventV1, baseCmd), compatContract(c.event, c.cmd))
			args := []string{"compat", "--against", base, next}
			if c.full {
				args = append(args, "--full")
			}
			code, _, errOut := cli(t, args...)
			if code != c.wantCode {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, c.wantCode, errOut)
			}
			if c.wantCode == exitFindings && !strings.HasPrefix(errOut, filepath.Join(next, "orders.acemq.yaml")+":") {
				t.Errorf("the finding is not positioned in the new contract:\n%s", errOut)
			}
			for _, w := range c.wantInMessage {
				if !strings.Contains(errOut, w) {
					t.Errorf("stderr lacks %q:\n%s", w, errOut)
				}
			}
		})
	}
}

func TestCompatMessageChanges(t *testing.T) {
	const v1 = "acemq: 1\ndomain: orders\nevents:\n  OrderPlaced:\n    fields: {orderId: uuid}\n" +
		"commands:\n  ChargeCard:\n    fields: {orderId: uuid}\n"
	cases := []struct {
		name, next string
		wantCode   int
		want       []string
	}{
		{name: "a new message passes", wantCode: exitOK,
			next: v1 + "  RefundCard:\n    fields: {orderId: uuid}\n"},
		{name: "a removed event breaks its readers", wantCode: exitFindings,
			next: "acemq: 1\ndomain: orders\ncommands:\n  ChargeCard:\n    fields: {orderId: uuid}\n",
			want: []string{"OrderPlaced: removed; consumers built from BASE still subscribe to it, so removing a message breaks its readers"}},
		{name: "a removed command breaks its readers", wantCode: exitFindings,
			next: "acemq: 1\ndomain: orders\nevents:\n  OrderPlaced:\n    fields: {orderId: uuid}\n",
			want: []string{"ChargeCard: removed; producers built from BASE still send it"}},
		{name: "an event that became a command is refused", wantCode: exitFindings,
			next: "acemq: 1\ndomain: orders\ncommands:\n  OrderPlaced:\n    fields: {orderId: uuid}\n  ChargeCard:\n    fields: {orderId: uuid}\n",
			want: []string{"OrderPlaced: was an event in BASE and is a command now"}},
		{name: "a new routing key strands the event's old consumers", wantCode: exitFindings,
			next: strings.Replace(v1, "OrderPlaced:\n", "OrderPlaced:\n    routing-key: order.created\n", 1),
			want: []string{`OrderPlaced: routing key changed from "order.placed" to "order.created"`}},
		{name: "a new codec strands the command's old producers", wantCode: exitFindings,
			next: strings.Replace(v1, "ChargeCard:\n    fields: {orderId: uuid}", "ChargeCard:\n    codec: text\n    fields: {orderId: string}", 1),
			want: []string{"ChargeCard: codec changed from json to text; the new consumer cannot decode"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			base, next := compatDirs(t, v1, c.next)
			code, _, errOut := cli(t, "compat", "--against", base, next)
			if code != c.wantCode {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, c.wantCode, errOut)
			}
			for _, w := range c.want {
				if !strings.Contains(errOut, w) {
					t.Errorf("stderr lacks %q:\n%s", w, errOut)
				}
			}
		})
	}
}

func TestCompatNamesTheNestedFieldAndItsLine(t *testing.T) {
	const types = "types:\n  Money:\n    fields:\n      currency: string\n      cents: long\n"
	v1 := "acemq: 1\ndomain: orders\n" + types + "events:\n  OrderPlaced:\n    fields:\n      lines: [Money]\n"
	v2 := strings.Replace(v1, "      currency: string\n", "", 1)
	base, next := compatDirs(t, v1, v2)
	code, _, errOut := cli(t, "compat", "--against", base, next)
	want := filepath.Join(next, "orders.acemq.yaml") + ":4:3: OrderPlaced: lines[].currency: removed, but it has no default in BASE"
	if code != exitFindings || !strings.Contains(errOut, want) {
		t.Fatalf("exit %d, stderr:\n%s\nwant %q", code, errOut, want)
	}
}

func TestCompatReportsEveryBreakingChangeInOneRun(t *testing.T) {
	v2 := compatContract(edit(eventV1, "\nnote: string", ""), edit(commandV1, "cents: long", "cents: int"))
	base, next := compatDirs(t, compatContract(eventV1, commandV1), v2)
	code, _, errOut := cli(t, "compat", "--against", base, next)
	if code != exitFindings || strings.Count(errOut, "\n") != 2 {
		t.Fatalf("exit %d, want 1 with two findings; stderr:\n%s", code, errOut)
	}
}

func TestCompatAcceptsFlagsAfterThePaths(t *testing.T) {
	base, next := compatDirs(t, compatContract(eventV1, commandV1), compatContract(eventV1, commandV1+"\nx: string"))
	if code, _, errOut := cli(t, "compat", next, "--against", base); code != exitFindings {
		t.Fatalf("exit %d, want 1; stderr:\n%s", code, errOut)
	}
}

func TestCompatUsageErrorsExitTwo(t *testing.T) {
	base, next := compatDirs(t, compatContract(eventV1, commandV1), compatContract(eventV1, commandV1))
	for _, args := range [][]string{
		{"compat", next},
		{"compat", "--against", base},
		{"compat", "--against", "git:", next},
		{"compat", "--against", filepath.Join(base, "missing"), next},
		{"compat", "--against", filepath.Join(base, "orders.acemq.yaml"), next},
		{"compat", "--frobnicate", "--against", base, next},
	} {
		if code, _, errOut := cli(t, args...); code != exitUsage || errOut == "" {
			t.Errorf("%q: exit %d, stderr %q; want 2 with a message", args, code, errOut)
		}
	}
}

func TestCompatReportsAContractErrorInsteadOfComparing(t *testing.T) {
	base, next := compatDirs(t, compatContract(eventV1, commandV1), compatContract(eventV1, commandV1+"\nx: nosuchtype"))
	code, _, errOut := cli(t, "compat", "--against", base, next)
	if code != exitFindings || !strings.Contains(errOut, "nosuchtype") {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut)
	}
}

func TestCompatReadsTheBaseDirectoryAsACheckoutWhenThePathsExistInIt(t *testing.T) {
	root := t.TempDir()
	old, cur := filepath.Join(root, "old"), filepath.Join(root, "cur")
	for dir, cmd := range map[string]string{old: commandV1, cur: commandV1 + "\nx: string"} {
		if err := os.MkdirAll(filepath.Join(dir, "contracts"), 0o755); err != nil {
			t.Fatal(err)
		}
		writeText(t, filepath.Join(dir, "contracts", "orders.acemq.yaml"), compatContract(eventV1, cmd))
		writeText(t, filepath.Join(dir, "contracts", "broken.acemq.yaml"), "not: a contract")
	}
	t.Chdir(cur)
	code, _, errOut := cli(t, "compat", "--against", old, filepath.Join("contracts", "orders.acemq.yaml"))
	if code != exitFindings || !strings.Contains(errOut, "ChargeCard: x: added without a default") {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut)
	}
}

func TestCompatEnumSymbolsFollowTheDirectionAndTheEnumDefault(t *testing.T) {
	contract := func(symbols, def string) string {
		return "acemq: 1\ndomain: orders\ntypes:\n  Status:\n    enum: [" + symbols + "]\n" + def +
			"events:\n  OrderPlaced:\n    fields: {status: Status}\ncommands:\n  SetStatus:\n    fields: {status: Status}\n"
	}
	cases := []struct {
		name, base, next string
		wantCode         int
		want             string
	}{
		{"a symbol added without a default breaks the event's old readers", contract("paid, shipped", ""),
			contract("paid, shipped, lost", ""), exitFindings,
			":4:3: OrderPlaced: status: enum orders.Status gained symbol lost, and the enum has no default in BASE"},
		{"a symbol added with a default in BASE passes", contract("paid, shipped", "    default: paid\n"),
			contract("paid, shipped, lost", "    default: paid\n"), exitOK, ""},
		{"a symbol removed without a default breaks the command's new reader", contract("paid, shipped", ""),
			contract("paid", ""), exitFindings,
			":4:3: SetStatus: status: enum orders.Status lost symbol shipped, and the enum has no default"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			base, next := compatDirs(t, c.base, c.next)
			code, _, errOut := cli(t, "compat", "--against", base, next)
			if code != c.wantCode || !strings.Contains(errOut, c.want) {
				t.Fatalf("exit %d (want %d), stderr:\n%s\nwant %q", code, c.wantCode, errOut, c.want)
			}
		})
	}
}
