package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// One set of rules for every command: broker URLs parsed as Connect parses
// them, the same exit code for a broker that cannot be reached, flags
// anywhere, and the long form of every short flag.

// refusedURL is a broker URL nothing listens on.
const refusedURL = "amqp://guest:guest@127.0.0.1:1/"

// TestPlanAcceptsAMultiHostURLAsConnectAndDLQDo gives plan and dlq a URL of
// two hosts that refuse: both try them and report the hosts they could not
// reach, with no DNS lookup of the host list and the same exit code.
func TestPlanAcceptsAMultiHostURLAsConnectAndDLQDo(t *testing.T) {
	lookups := noLookups(t)
	dir := contracts(t)
	multi := "amqp://u:p@127.0.0.1:1,127.0.0.1:2/"
	planCode, _, planErr := cli(t, "plan", "--url", multi, dir)
	dlqCode, _, dlqErr := cli(t, "dlq", "list", "--url", multi, dir)
	for _, got := range []string{planErr, dlqErr} {
		if !strings.Contains(got, "cannot connect to amqp://u:xxxxx@127.0.0.1:1,127.0.0.1:2/") || strings.Contains(got, "no such host") {
			t.Errorf("a two-host URL: %q; want the two hosts it could not reach", got)
		}
	}
	if planCode != dlqCode || planCode != exitUsage {
		t.Errorf("plan exit %d, dlq exit %d; want both 2", planCode, dlqCode)
	}
	if n := lookups.Load(); n != 0 {
		t.Errorf("%d DNS lookups: a host list was looked up as one host", n)
	}
}

// TestPlanOnAMultiHostURLReachesTheLiveHost lists a dead host before the
// test broker: plan skips to the live one and compares, as Connect would.
func TestPlanOnAMultiHostURLReachesTheLiveHost(t *testing.T) {
	r := newOpsRig(t, planContract)
	user, host, ok := strings.Cut(r.url, "@")
	if !ok {
		t.Skipf("the test broker's URL has no credentials to splice a host after")
	}
	multi := user + "@127.0.0.1:1," + host
	code, out, errOut := cli(t, "plan", "--url", multi, r.dir)
	if code != exitFindings || !strings.Contains(out, "missing exchange "+r.domain) {
		t.Errorf("plan through a two-host URL: exit %d:\n%s%s", code, out, errOut)
	}
}

// TestPlanAndDLQTreatMemoryURLsAlike: memory:// is a broker inside one
// program, empty in acemq-gen's process; every broker command refuses it
// with the same usage error.
func TestPlanAndDLQTreatMemoryURLsAlike(t *testing.T) {
	dir := contracts(t)
	var first string
	for _, args := range [][]string{
		{"plan", "--url", "memory://dev", dir},
		{"plan", "--url", "memory://dev", "--apply", dir},
		{"dlq", "list", "--url", "memory://dev", dir},
		{"dlq", "show", "--url", "memory://dev", "q.dlq", dir},
		{"dlq", "redrive", "--url", "MEMORY://dev", "q.dlq", dir},
	} {
		code, _, errOut := cli(t, args...)
		msg, _, _ := strings.Cut(errOut, "\n")
		_, msg, _ = strings.Cut(msg, ": ") // after "acemq-gen plan: "
		if first == "" {
			first = msg
		}
		if code != exitUsage || !strings.Contains(msg, "memory://") || !strings.Contains(msg, "amqp://") || msg != first {
			t.Errorf("%q: exit %d, %q; want 2 and the message the others give, %q", args, code, errOut, first)
		}
	}
}

// TestARefusedConnectionExitsTwoFromEveryCommand: a broker, management API
// or registry that cannot be reached exits 2 from every command, the code
// usage gives a command that could not start its work.
func TestARefusedConnectionExitsTwoFromEveryCommand(t *testing.T) {
	dir, reg := contracts(t), registryDir(t, registryContract("", ""))
	for _, args := range [][]string{
		{"plan", "--url", refusedURL, dir},
		{"plan", "--url", refusedURL, "--apply", dir},
		{"plan", "--url", refusedURL, "--management", "http://guest:guest@127.0.0.1:1", dir},
		{"dlq", "list", "--url", refusedURL, dir},
		{"dlq", "show", "--url", refusedURL, "q.dlq", dir},
		{"dlq", "redrive", "--url", refusedURL, "orders.cancel-order.dlq", dir},
		{"registry", "check", "--url", "http://127.0.0.1:1", reg},
		{"registry", "push", "--url", "http://127.0.0.1:1", reg},
	} {
		if code, _, errOut := cli(t, args...); code != exitUsage || !strings.Contains(errOut, "127.0.0.1:1") {
			t.Errorf("%q: exit %d, %q; want 2 naming what it could not reach", args, code, errOut)
		}
	}
}

// TestFlagsAfterArgumentsWorkInEveryCommand puts the flags after QUEUE and
// the paths: every command reads them as flags, and everything after "--"
// as arguments.
func TestFlagsAfterArgumentsWorkInEveryCommand(t *testing.T) {
	dir := contracts(t)
	for _, args := range [][]string{
		{"dlq", "show", "q.dlq", "--url", refusedURL, dir},
		{"dlq", "redrive", "orders.cancel-order.dlq", dir, "--url", refusedURL, "--limit", "1"},
		{"dlq", "list", dir, "--url", refusedURL},
		{"plan", dir, "--url", refusedURL},
	} {
		if code, _, errOut := cli(t, args...); code != exitUsage || !strings.Contains(errOut, "cannot connect to amqp://guest:xxxxx@127.0.0.1:1/") {
			t.Errorf("%q: exit %d, %q; want the flags read and the broker tried", args, code, errOut)
		}
	}
	out := t.TempDir()
	for _, args := range [][]string{
		{"generate", dir, "-o", out},
		{"check", dir, "--output", out},
		{"vet", dir},
		{"asyncapi", dir, "-o", out, "--format", "json"},
		{"init", "billing", "-o", filepath.Join(out, "svc")},
		{"generate", "-o", out, "--", dir},
		{"help", "plan", "--help"},
	} {
		if code, _, errOut := cli(t, args...); code != exitOK {
			t.Errorf("%q: exit %d, %q; want 0", args, code, errOut)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "orders.asyncapi.json")); err != nil {
		t.Errorf("asyncapi with -o after the path: %v", err)
	}
	if code, _, errOut := cli(t, "vet", dir, "--nope"); code != exitUsage || !strings.Contains(errOut, "unknown flag --nope") {
		t.Errorf("vet PATH --nope: exit %d, %q; want the unknown flag named", code, errOut)
	}
	if code, _, errOut := cli(t, "version", "extra", "-h"); code != exitOK {
		t.Errorf("version extra -h: exit %d, %q; want the help", code, errOut)
	}
	if code, _, errOut := cli(t, "version", "extra"); code != exitUsage || !strings.Contains(errOut, "no arguments") {
		t.Errorf("version extra: exit %d, %q; want a usage error", code, errOut)
	}
}

// TestEveryShortFlagHasItsLongForm: each command whose usage offers -o
// accepts --output too, and says so in its help.
func TestEveryShortFlagHasItsLongForm(t *testing.T) {
	short := regexp.MustCompile(`(?:^|[\[ ])-([a-z]) `)
	long := map[string]string{"o": "output"}
	for _, c := range commands() {
		for _, m := range short.FindAllStringSubmatch(c.args, -1) {
			name, ok := long[m[1]]
			if !ok {
				t.Errorf("%s: -%s has no long form in this test's table", c.name, m[1])
				continue
			}
			if !strings.Contains(c.about, "-"+m[1]+", --"+name+" ") {
				t.Errorf("%s's help does not give -%s its long form --%s", c.name, m[1], name)
			}
			if code, _, errOut := cli(t, c.name, "--"+name, t.TempDir(), "-h"); code != exitOK {
				t.Errorf("%s --%s: exit %d, %q", c.name, name, code, errOut)
			}
		}
	}
}

// TestInitAcceptsOutput: the long form of init's -o.
func TestInitAcceptsOutput(t *testing.T) {
	dir := t.TempDir()
	if code, _, errOut := cli(t, "init", "--output", dir, "billing"); code != exitOK {
		t.Fatalf("init --output: exit %d, %q", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "contracts", "billing.acemq.yaml")); err != nil {
		t.Fatal(err)
	}
}
