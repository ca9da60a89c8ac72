package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
)

// The one usage text of acemq-gen, made from the command table: help prints
// it, the package doc (doc.go) and README's CLI row hold it, and
// TestUsageIsOneTextInHelpDocAndReadme keeps the three equal.

// usageIntro opens the command list of help.
const usageIntro = "acemq-gen turns acemq contracts into typed Go messaging code.\n\nusage: acemq-gen COMMAND [flags] [arguments]\n\ncommands:\n"

// usageOutro follows the command list of help.
const usageOutro = `
PATH is a contract file or a directory searched for *.acemq.yaml, *.acemq.yml and *.avsc.
Exit codes: 0 ok, 1 findings, 2 usage or an unreachable service (broker, registry).
Flags may come before or after the arguments; -o has the long form --output.
Run "acemq-gen help COMMAND" for a command's flags and an example.
`

// commandList is one line a command, "name  arguments  summary", in the
// order of the command table.
func commandList() []string {
	var sb strings.Builder
	tw := tabwriter.NewWriter(&sb, 0, 0, 2, ' ', 0)
	for _, c := range commands() {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", c.name, c.args, c.summary)
	}
	tw.Flush()
	lines := strings.Split(strings.TrimSuffix(sb.String(), "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return lines
}

// printUsage lists the commands.
func printUsage(w io.Writer) {
	fmt.Fprint(w, usageIntro)
	for _, l := range commandList() {
		fmt.Fprintf(w, "  %s\n", l)
	}
	fmt.Fprint(w, usageOutro)
}

// docUsage is the command list as the package doc holds it: a code block
// of the doc comment.
func docUsage() string {
	var sb strings.Builder
	for _, l := range commandList() {
		fmt.Fprintf(&sb, "//\tacemq-gen %s\n", l)
	}
	return sb.String()
}

// readmeRow is README's row of cmd/acemq-gen in its table of packages.
func readmeRow() string {
	var names []string
	for _, c := range commands() {
		n := "`" + c.name + "`"
		if len(c.subs) > 0 {
			n += " (`" + strings.Join(c.subs, "`, `") + "`)"
		}
		names = append(names, n)
	}
	return "| `cmd/acemq-gen/` | the CLI: " + strings.Join(names, ", ") + " (`acemq-gen help COMMAND` or `acemq-gen COMMAND -h` for each) |"
}

// subcommand reads c's subcommand, the first of args. ok is false when c
// must stop with code: after its help, or a usage error naming the nearest
// subcommand.
func (c command) subcommand(args []string, stdout, stderr io.Writer) (sub string, code int, ok bool) {
	if len(args) == 0 {
		return "", c.usageError(stderr, "name a subcommand: %s", orList(c.subs)), false
	}
	if sub = args[0]; isHelpFlag(sub) {
		c.printHelp(stdout)
		return "", exitOK, false
	}
	if !slices.Contains(c.subs, sub) {
		return "", c.usageError(stderr, "unknown subcommand %q%s", sub, didYouMean(suggest(sub, c.subs))), false
	}
	return sub, exitOK, true
}

// isHelpFlag reports whether arg asks for help: -h, -help or --help.
func isHelpFlag(arg string) bool { return arg == "-h" || arg == "-help" || arg == "--help" }

// orList is "a", "a or b", "a, b or c".
func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}
