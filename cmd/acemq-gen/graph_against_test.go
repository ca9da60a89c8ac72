package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// systemRepo copies the three fixture modules into a new git repository
// (acemq-gen replaced by this working tree) with one commit, and returns it.
func systemRepo(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	repo := t.TempDir()
	for _, m := range []string{"shop", "billing", "analytics"} {
		copyTree(t, systemFixture+"/"+m, filepath.Join(repo, m))
		editFile(t, filepath.Join(repo, m, "go.mod"), "../../../../../../..", root)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "base"}} {
		if out, err := exec.Command("git", append([]string{"-C", repo}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return repo
}

// editFile replaces old by new in the file at path, once.
func editFile(t *testing.T, path, old, new string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(data), old) {
		t.Fatalf("%s: %v, or it lacks %q", path, err, old)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(data), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestGraphAgainstARevisionListsProducersAddedAndFieldsNewlyRead(t *testing.T) {
	repo := systemRepo(t)
	editFile(t, filepath.Join(repo, "billing", "charge.go"), "charge(m.Payload)-discount()", "charge(m.Payload)-discount()+int64(len(*m.Payload.GiftNote))")
	editFile(t, filepath.Join(repo, "shop", "main.go"), "AmountCents: 200}))", "AmountCents: 200}), pub.PublishOrderCancelled(ctx, orders.OrderCancelled{}))")
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	t.Chdir(repo)
	code, stdout, errOut := cli(t, "graph", "--against", "git:HEAD", "shop", "billing", "analytics")
	want := "+ shop publishes event orders.OrderCancelled at main.go:35\n" +
		"+ billing consumes event orders.OrderPlaced (queue billing.order.placed) reads giftNote at charge.go:20\n"
	if code != exitOK || errOut != "" || stdout != want {
		t.Errorf("exit %d, stderr %q, stdout:\n%s\nwant:\n%s", code, errOut, stdout, want)
	}
	if left, _ := filepath.Glob(filepath.Join(tmp, "acemq-gen-graph-*")); len(left) > 0 {
		t.Errorf("the checkout of HEAD was left behind: %v", left)
	}
	if code, stdout, errOut := cli(t, "graph", "--against", "git:HEAD", filepath.Join(repo, "analytics")); code != exitOK || stdout != "graph: no change since git:HEAD\n" {
		t.Errorf("unchanged analytics, named by its absolute path: exit %d, stdout %q, stderr %q", code, stdout, errOut)
	}
}

func TestGraphAgainstAnUnknownRevisionIsAUsageError(t *testing.T) {
	t.Chdir(systemRepo(t))
	code, _, errOut := cli(t, "graph", "--against", "git:no-such-rev", "shop")
	if code != exitUsage || !strings.Contains(errOut, "git:no-such-rev") {
		t.Errorf("exit %d, stderr %q; want 2", code, errOut)
	}
}

func TestGraphOfAGoWorkDirectoryLoadsEveryModuleItUses(t *testing.T) {
	repo := systemRepo(t)
	work := "go 1.26.0\n\nuse (\n\t./shop\n\t./billing\n\t" + filepath.Join(repo, "analytics") + "\n)\n"
	if err := os.WriteFile(filepath.Join(repo, "go.work"), []byte(work), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := cli(t, "graph", "--check", repo)
	if code != exitFindings || strings.Count(errOut, "\n") != 2 || !strings.Contains(errOut, "example.com/shop/main.go:35: unconsumed") ||
		!strings.Contains(errOut, "example.com/billing/main.go:30: unpublished") {
		t.Errorf("exit %d, stderr %q; want the fixture's two findings", code, errOut)
	}
}
