package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestHelpCommandPrintsUsageToStdout(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"-h"}, {"--help"}} {
		code, stdout, errOut := cli(t, args...)
		if code != exitOK || errOut != "" {
			t.Errorf("%q: exit %d, stderr %q; want 0 and nothing on stderr", args, code, errOut)
		}
		for _, name := range commandNames() {
			if !strings.Contains(stdout, "\n  "+name+" ") {
				t.Errorf("%q: the command list lacks %s:\n%s", args, name, stdout)
			}
		}
	}
	for _, name := range commandNames() {
		code, stdout, errOut := cli(t, "help", name)
		if code != exitOK || errOut != "" {
			t.Errorf("help %s: exit %d, stderr %q", name, code, errOut)
		}
		c, _ := lookup(name)
		for _, want := range []string{"usage: acemq-gen " + name, c.about, "\nexample:\n  ", strings.Split(c.example, "\n")[0]} {
			if !strings.Contains(stdout, want) {
				t.Errorf("help %s lacks %q:\n%s", name, want, stdout)
			}
		}
	}
}

func TestCommandHelpFlag(t *testing.T) {
	for _, name := range commandNames() {
		_, want, _ := cli(t, "help", name)
		for _, flag := range []string{"-h", "--help", "-help"} {
			code, stdout, errOut := cli(t, name, flag)
			if code != exitOK || stdout != want || errOut != "" {
				t.Errorf("%s %s: exit %d, stderr %q, stdout:\n%s\nwant exit 0 and help %s on stdout", name, flag, code, errOut, stdout, name)
			}
		}
	}
}

func TestUnknownCommandSuggests(t *testing.T) {
	for got, want := range map[string]string{"generat": "generate", "genreate": "generate", "gen": "generate", "comapt": "compat", "chek": "check", "versoin": "version"} {
		code, stdout, errOut := cli(t, got, "x")
		if code != exitUsage || stdout != "" || !strings.Contains(errOut, `unknown command "`+got+`"; did you mean "`+want+`"?`) {
			t.Errorf("%s: exit %d, stderr %q; want 2 and did you mean %q", got, code, errOut, want)
		}
	}
	if code, _, errOut := cli(t, "help", "generat"); code != exitUsage || !strings.Contains(errOut, `did you mean "generate"?`) {
		t.Errorf("help generat: exit %d, stderr %q", code, errOut)
	}
	if code, _, errOut := cli(t, "frobnicate"); code != exitUsage || strings.Contains(errOut, "did you mean") {
		t.Errorf("frobnicate: exit %d, stderr %q; want 2 and no suggestion", code, errOut)
	}
}

func TestUnknownFlagSuggests(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"generate", "--outptu", "x", "y"}, `unknown flag --outptu; did you mean "--output"?`},
		{[]string{"check", "-ouptut=x", "y"}, `unknown flag -ouptut; did you mean "--output"?`},
		{[]string{"compat", "--agianst", "git:HEAD", "x"}, `unknown flag --agianst; did you mean "--against"?`},
		{[]string{"compat", "--against", "git:HEAD", "--ful", "x"}, `unknown flag --ful; did you mean "--full"?`},
	} {
		code, stdout, errOut := cli(t, tc.args...)
		if code != exitUsage || stdout != "" || !strings.Contains(errOut, tc.want) || !strings.Contains(errOut, "usage: acemq-gen "+tc.args[0]) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q with the usage line", tc.args, code, errOut, tc.want)
		}
	}
	if code, _, errOut := cli(t, "generate", "-x", "a"); code != exitUsage || !strings.Contains(errOut, "unknown flag -x") || strings.Contains(errOut, "did you mean") {
		t.Errorf("-x: exit %d, stderr %q; want 2 and no suggestion", code, errOut)
	}
}

func TestGenerateTakesOutputAsTheLongFormOfO(t *testing.T) {
	out := t.TempDir()
	if code, _, errOut := cli(t, "generate", "--output", out, contracts(t)); code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(out, "orders", "orders.acemq.go")); err != nil {
		t.Fatal(err)
	}
}

func TestVetVerdictWhenClean(t *testing.T) {
	code, stdout, errOut := cli(t, "vet", contracts(t))
	if code != exitOK || errOut != "" || stdout != "vet: 1 contract, 2 messages; no problems\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, errOut)
	}
	name := filepath.Join(t.TempDir(), "old.acemq.yaml")
	writeText(t, name, "acemq: 1\ndomain: orders\nevents:\n  A:\n    deprecated: use B\n    fields: {x: int}\n")
	if code, stdout, _ := cli(t, "vet", name); code != exitOK || stdout != "vet: 1 contract, 1 message; 1 warning, no errors\n" {
		t.Fatalf("with a warning: exit %d, stdout %q", code, stdout)
	}
}

func TestCompatVerdictWhenNothingBreaks(t *testing.T) {
	base, next := contracts(t), contracts(t)
	code, stdout, errOut := cli(t, "compat", "--against", base, next)
	if code != exitOK || errOut != "" || stdout != "compat: 2 messages checked against "+base+"; nothing breaks\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, errOut)
	}
}

func TestCompatVerdictCountsTheMessagesOfTheGitRevision(t *testing.T) {
	r := newGitRepo(t)
	r.commit(map[string]string{"contracts/orders.acemq.yaml": ordersContract})
	r.commit(map[string]string{"contracts/orders.acemq.yaml": ordersContract + "  ShipOrder:\n    fields:\n      orderId: uuid\n"})
	code, stdout, errOut := cli(t, "compat", "--against", "git:HEAD~1", filepath.Join(r.dir, "contracts"))
	if code != exitOK || stdout != "compat: 2 messages checked against git:HEAD~1; nothing breaks\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, errOut)
	}
}
