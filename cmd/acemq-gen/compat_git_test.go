package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitRepo is a throwaway repository in a temporary directory.
type gitRepo struct {
	t   *testing.T
	dir string
}

func newGitRepo(t *testing.T) gitRepo {
	t.Helper()
	r := gitRepo{t, t.TempDir()}
	r.git("init", "-q")
	r.git("config", "user.name", "acemq test")
	r.git("config", "user.email", "test@acemq.invalid")
	r.git("config", "commit.gpgsign", "false")
	return r
}

func (r gitRepo) git(args ...string) {
	r.t.Helper()
	cmd := exec.Command("git", append([]string{"-C", r.dir}, args...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		r.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// commit writes files (slash paths relative to the repository) and commits them.
func (r gitRepo) commit(files map[string]string) {
	r.t.Helper()
	for name, text := range files {
		p := filepath.Join(r.dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			r.t.Fatal(err)
		}
		writeText(r.t, p, text)
	}
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "change")
}

func TestCompatAgainstAGitRevisionReadsTheOldContractsWithoutACheckout(t *testing.T) {
	r := newGitRepo(t)
	r.commit(map[string]string{"contracts/orders.acemq.yaml": compatContract(eventV1, commandV1)})
	r.commit(map[string]string{"contracts/orders.acemq.yaml": compatContract(eventV1+"\nextra: {type: string, default: x}", commandV1)})
	contracts := filepath.Join(r.dir, "contracts")
	if code, _, errOut := cli(t, "compat", "--against", "git:HEAD~1", contracts); code != exitOK {
		t.Fatalf("a field added with a default: exit %d, stderr:\n%s", code, errOut)
	}
	writeText(t, filepath.Join(contracts, "orders.acemq.yaml"), compatContract(eventV1, edit(commandV1, "cents: long", "cents: int")))
	code, _, errOut := cli(t, "compat", "--against", "git:HEAD", contracts)
	if code != exitFindings || !strings.Contains(errOut, "ChargeCard: cents: type changed from long to int") {
		t.Fatalf("a command's long became int: exit %d, stderr:\n%s", code, errOut)
	}
	if before, _ := os.ReadFile(filepath.Join(contracts, "orders.acemq.yaml")); !strings.Contains(string(before), "cents: int") {
		t.Fatal("compat changed the working tree")
	}
}

func TestCompatAgainstGitTakesAContractFileAndSkipsHiddenDirectories(t *testing.T) {
	r := newGitRepo(t)
	r.commit(map[string]string{
		"orders.acemq.yaml":         compatContract(eventV1, commandV1),
		".hidden/broken.acemq.yaml": "acemq: 1\nnot a contract: [",
	})
	writeText(t, filepath.Join(r.dir, "orders.acemq.yaml"), compatContract(edit(eventV1, "\nnote: string", ""), commandV1))
	for _, path := range []string{r.dir, filepath.Join(r.dir, "orders.acemq.yaml")} {
		code, _, errOut := cli(t, "compat", "--against", "git:HEAD", path)
		if code != exitFindings || !strings.Contains(errOut, "OrderPlaced: note: removed") || strings.Contains(errOut, "broken") {
			t.Errorf("%s: exit %d, stderr:\n%s", path, code, errOut)
		}
	}
}

func TestCompatAgainstGitAcceptsAContractTheRevisionDidNotHave(t *testing.T) {
	r := newGitRepo(t)
	r.commit(map[string]string{"README.md": "nothing yet"})
	writeText(t, filepath.Join(r.dir, "orders.acemq.yaml"), compatContract(eventV1, commandV1))
	if code, _, errOut := cli(t, "compat", "--against", "git:HEAD", r.dir); code != exitOK {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut)
	}
}

func TestCompatAgainstAnUnknownRevisionIsAUsageError(t *testing.T) {
	r := newGitRepo(t)
	r.commit(map[string]string{"orders.acemq.yaml": compatContract(eventV1, commandV1)})
	code, _, errOut := cli(t, "compat", "--against", "git:no-such-rev", r.dir)
	if code != exitUsage || !strings.Contains(errOut, "no-such-rev") {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut)
	}
}

func TestCompatAgainstGitFollowsImportsOutsideThePath(t *testing.T) {
	const money = "acemq: 1\npackage: money\ntypes:\n  Money:\n    fields:\n      currency: string\n      cents: long\n"
	const billing = "acemq: 1\ndomain: billing\nimports:\n  m: ../types/money.acemq.yaml\n" +
		"events:\n  InvoiceRaised:\n    fields:\n      total: m.Money\n"
	r := newGitRepo(t)
	r.commit(map[string]string{"types/money.acemq.yaml": money, "contracts/billing.acemq.yaml": billing})
	contracts := filepath.Join(r.dir, "contracts")
	if code, _, errOut := cli(t, "compat", "--against", "git:HEAD", contracts); code != exitOK {
		t.Fatalf("unchanged: exit %d, stderr:\n%s", code, errOut)
	}
	writeText(t, filepath.Join(r.dir, "types", "money.acemq.yaml"), strings.Replace(money, "      currency: string\n", "", 1))
	code, _, errOut := cli(t, "compat", "--against", "git:HEAD", contracts)
	want := filepath.Join(r.dir, "types", "money.acemq.yaml") + ":4:3: InvoiceRaised: total.currency: removed, but it has no default in BASE"
	if code != exitFindings || !strings.Contains(errOut, want) {
		t.Fatalf("exit %d, stderr:\n%s\nwant %q", code, errOut, want)
	}
}

// TestCompatAgainstGitReportsAFileMissingAtTheRevisionAtTheKeyThatNamesIt:
// an import the base revision's contract names but the revision lacks is a
// diagnostic at the key, as on disk (issue 23 item 5), not git's error.
func TestCompatAgainstGitReportsAFileMissingAtTheRevisionAtTheKeyThatNamesIt(t *testing.T) {
	const billing = "acemq: 1\ndomain: billing\nimports:\n  m: ../types/money.acemq.yaml\n" +
		"events:\n  InvoiceRaised:\n    fields:\n      total: m.Money\n"
	r := newGitRepo(t)
	r.commit(map[string]string{"contracts/billing.acemq.yaml": billing})
	code, _, errOut := cli(t, "compat", "--against", "git:HEAD", filepath.Join(r.dir, "contracts"))
	if code == exitOK || strings.Contains(errOut, "git show") || !strings.Contains(errOut, "billing.acemq.yaml:4:") ||
		!strings.Contains(errOut, "no such file") {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut)
	}
}
