package main

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var updateUsage = flag.Bool("update-usage", false, "rewrite doc.go's command list and README's CLI row from the command table")

// docUsageBlock is the command list of doc.go: its lines "//\tacemq-gen …".
var docUsageBlock = regexp.MustCompile(`(?m)(^//\tacemq-gen .*\n)+`)

// readmeCLIRow is README's row of cmd/acemq-gen.
var readmeCLIRow = regexp.MustCompile("(?m)^\\| `cmd/acemq-gen/` \\|.*\\|$")

// TestUsageIsOneTextInHelpDocAndReadme: help's command list, the package
// doc's and README's CLI row are made from the one command table; every
// command is in all three (the doc once lacked registry). Run with
// -update-usage to rewrite doc.go and README.md.
func TestUsageIsOneTextInHelpDocAndReadme(t *testing.T) {
	readme := filepath.Join("..", "..", "README.md")
	if *updateUsage {
		rewrite(t, "doc.go", docUsageBlock, docUsage())
		rewrite(t, readme, readmeCLIRow, readmeRow())
	}
	_, help, _ := cli(t, "help")
	doc, md := readText(t, "doc.go"), readText(t, readme)
	if got := docUsageBlock.FindString(doc); got != docUsage() {
		t.Errorf("doc.go's command list is\n%s\nthe command table makes\n%s(run go test -run TestUsageIsOne -update-usage)", got, docUsage())
	}
	if got := readmeCLIRow.FindString(md); got != readmeRow() {
		t.Errorf("README's CLI row is\n%s\nthe command table makes\n%s", got, readmeRow())
	}
	for _, name := range commandNames() {
		for where, text := range map[string]string{"help": help, "doc.go": doc, "README": readmeRow()} {
			if !strings.Contains(text, name+" ") && !strings.Contains(text, "`"+name) {
				t.Errorf("%s lacks command %s", where, name)
			}
		}
	}
	for _, l := range commandList() {
		if !strings.Contains(help, "\n  "+l+"\n") || !strings.Contains(doc, "//\tacemq-gen "+l+"\n") {
			t.Errorf("help or doc.go lacks the line %q", l)
		}
	}
}

func readText(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func rewrite(t *testing.T, name string, re *regexp.Regexp, with string) {
	t.Helper()
	text := readText(t, name)
	if !re.MatchString(text) {
		t.Fatalf("%s has no place for %q", name, with)
	}
	if err := os.WriteFile(name, []byte(re.ReplaceAllLiteralString(text, with)), 0o644); err != nil {
		t.Fatal(err)
	}
}
