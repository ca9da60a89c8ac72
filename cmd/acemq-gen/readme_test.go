package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/mod/modfile"

	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/scaffold"
)

// TestReadmeTutorialRunsVerbatim follows README.md's "Five minutes with
// acemq-gen" top to bottom in a new module outside the repository, as a user
// would: each file block is written to the file the text before it names,
// each sh block's commands run in order, and a text block must be exactly
// what the command before it printed. The blocks come from README.md itself,
// so an edit to the tutorial is tested. Only go get -tool is stood in for
// (the module is on no proxy): it becomes the tool directive and requirement
// it writes, with a replace of acemq-gen by this working tree, and go mod
// tidy.
func TestReadmeTutorialRunsVerbatim(t *testing.T) {
	followTutorial(t, "")
}

// TestReadmeTutorialRunsWithInit follows the tutorial as README offers it
// with init: after step 0 it runs the init command README names, writes
// step 1's contract over the scaffolded one (the edit README asks for) and
// keeps the gen.go init wrote, which must hold step 2's package clause and
// go:generate line; go run . must then print the tutorial's output.
func TestReadmeTutorialRunsWithInit(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("`(go tool acemq-gen init [^`]+)`").FindSubmatch(data)
	if m == nil {
		t.Fatal("README offers no go tool acemq-gen init command")
	}
	followTutorial(t, string(m[1]))
}

// followTutorial runs README's tutorial in a new module; a non-empty
// initCmd runs after step 0, and gen.go is then init's, checked against
// the tutorial's instead of written from it.
func followTutorial(t *testing.T, initCmd string) {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	blocks := tutorialBlocks(t, filepath.Join(root, "README.md"), "## Five minutes with acemq-gen")
	mod := t.TempDir()
	var printed string
	seen := map[string]int{}
	for _, b := range blocks {
		seen[b.lang]++
		switch {
		case b.lang == "sh":
			printed = runTutorialShell(t, mod, root, b.text)
			if seen["sh"] == 1 && initCmd != "" {
				runTutorialShell(t, mod, root, initCmd)
			}
		case b.lang == "text":
			if printed != b.text {
				t.Fatalf("the tutorial says the program prints\n%s\nit printed\n%s", b.text, printed)
			}
		case b.file == "":
			t.Fatalf("the text before the %s block names no file to write it to:\n%s", b.lang, b.text)
		case initCmd != "" && b.file == "gen.go":
			assertScaffoldedAs(t, filepath.Join(mod, "gen.go"), b.text)
		default:
			writeText(t, mkdirFor(t, filepath.Join(mod, filepath.FromSlash(b.file))), b.text)
		}
	}
	if seen["yaml"] != 1 || seen["go"] != 2 || seen["sh"] < 2 || seen["text"] != 1 {
		t.Fatalf("the tutorial's blocks were %v; want a contract, gen.go, main.go, commands and the program's output", seen)
	}
}

// assertScaffoldedAs fails t unless the scaffolded file name holds the
// package clause and the go:generate line of the tutorial's text.
func assertScaffoldedAs(t *testing.T, name, text string) {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatalf("init did not write %s: %v", name, err)
	}
	for line := range strings.SplitSeq(text, "\n") {
		if strings.HasPrefix(line, "package ") || strings.HasPrefix(line, "//go:generate ") {
			if !strings.Contains("\n"+string(data), "\n"+line+"\n") {
				t.Errorf("init's %s lacks the tutorial's line %q:\n%s", filepath.Base(name), line, data)
			}
		}
	}
}

// TestInitThenGoModTidyKeepsGoGenerateWorking scaffolds with go tool
// acemq-gen init in a module that has the tool, runs go mod tidy before
// anything imports the runtime, and then go generate and go build: the tool
// directive keeps acemq-gen required, so tidy cannot drop what gen.go runs.
// gen.go at the module's root is package main, so the build has a main.go.
func TestInitThenGoModTidyKeepsGoGenerateWorking(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	mod := t.TempDir()
	userGo(t, mod, "mod", "init", "example.com/billing")
	addTool(t, mod, root, scaffold.ToolPath)
	out := userGo(t, mod, "tool", "acemq-gen", "init", "billing")
	if strings.Contains(out, "go get -tool") {
		t.Errorf("init asked for the tool the module already has:\n%s", out)
	}
	userGo(t, mod, "mod", "tidy")
	if data, _ := os.ReadFile(filepath.Join(mod, "go.mod")); !strings.Contains(string(data), "tool "+scaffold.ToolPath) {
		t.Fatalf("go mod tidy dropped the tool:\n%s", data)
	}
	userGo(t, mod, "generate", "./...")
	if _, err := os.Stat(filepath.Join(mod, "billing", "billing.acemq.go")); err != nil {
		t.Fatalf("go generate did not write the package: %v", err)
	}
	writeText(t, filepath.Join(mod, "main.go"), "package main\n\nfunc main() {}\n") // gen.go at the root is package main
	userGo(t, mod, "build", "./...")
}

// A tutorialBlock is one fenced block: its language, its text and, for a
// file, the last file name the text before it spells in backquotes.
type tutorialBlock struct {
	lang, text, file string
}

var fileName = regexp.MustCompile("`([\\w./-]+\\.(?:go|ya?ml))`")

// tutorialBlocks reads the fenced blocks of the section of a markdown file
// that starts with heading, in order.
func tutorialBlocks(t *testing.T, name, heading string) []tutorialBlock {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(data), "\n"+heading+"\n")
	if !ok {
		t.Fatalf("%s has no section %q", name, heading)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	var blocks []tutorialBlock
	for {
		prose, rest, ok := strings.Cut(section, "\n```")
		if !ok {
			return blocks
		}
		lang, rest, _ := strings.Cut(rest, "\n")
		text, rest, ok := strings.Cut(rest, "```\n")
		if !ok {
			t.Fatalf("%s: the %s block after %q is not closed", name, lang, prose)
		}
		b := tutorialBlock{lang: lang, text: text}
		if names := fileName.FindAllStringSubmatch(prose, -1); len(names) > 0 {
			b.file = names[len(names)-1][1]
		}
		blocks, section = append(blocks, b), "\n"+rest
	}
}

// runTutorialShell runs the commands of an sh block in mod and returns what
// the last one printed on stdout. mkdir and cd are the temporary module
// itself.
func runTutorialShell(t *testing.T, mod, root, script string) string {
	t.Helper()
	var printed string
	for line := range strings.SplitSeq(script, "\n") {
		if i := strings.Index(line, " #"); i >= 0 {
			line = line[:i]
		}
		for cmd := range strings.SplitSeq(line, "&&") {
			args := strings.Fields(cmd)
			switch {
			case len(args) == 0 || args[0] == "mkdir" || args[0] == "cd":
			case len(args) == 4 && args[0] == "go" && args[1] == "get" && args[2] == "-tool":
				addTool(t, mod, root, args[3])
			case args[0] == "go":
				printed = userGo(t, mod, args[1:]...)
			default:
				t.Fatalf("the tutorial runs %q, which this test cannot", cmd)
			}
		}
	}
	return printed
}

// addTool stands in for go get -tool of a package of acemq-gen: the tool
// directive and requirement it writes, a replace of the module by root (and
// root's go.sum, since the checksum database may be out of reach), then go
// mod tidy.
func addTool(t *testing.T, mod, root, tool string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	module := modfile.ModulePath(data)
	if tool != module && !strings.HasPrefix(tool, module+"/") {
		t.Fatalf("the tutorial adds the tool %s, which is not in %s", tool, module)
	}
	userGo(t, mod, "mod", "edit", "-require="+module+"@v0.0.0", "-replace="+module+"="+root, "-tool="+tool)
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	writeText(t, filepath.Join(mod, "go.sum"), string(sum))
	userGo(t, mod, "mod", "tidy")
}

// userGo runs the go command in dir as a user would, with the machine's
// module proxy, and returns its stdout.
func userGo(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=", "GOWORK=off")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go %s: %v\n%s%s", strings.Join(args, " "), err, out, stderr.String())
	}
	return string(out)
}

func mkdirFor(t *testing.T, name string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	return name
}
