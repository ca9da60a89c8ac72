package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
)

// A command is one acemq-gen subcommand and its help.
type command struct {
	name    string
	args    string // the synopsis after the name: [-o DIR] PATH...
	summary string // one line in the command list
	about   string // help <command>: what it does, its flags and arguments
	example string // help <command>: command lines to copy, one a line
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) int
}

// commands lists every command in the order help shows them.
func commands() []command {
	return []command{
		{name: "generate", args: "[-o DIR] [--asyncapi] PATH...", summary: "write one package per domain into DIR/<package>/",
			about: `Generate reads the contracts under PATH and writes one Go package per domain
into DIR/<package>/, removing the generated files no contract writes any
longer. Nothing is written when a contract has an error.

flags:
  -o, --output DIR   the output directory (default .); its import path comes
                     from the nearest go.mod
  --asyncapi         also write DIR/<domain>.asyncapi.yaml, each domain's
                     AsyncAPI 3.0 document (see acemq-gen help asyncapi)`,
			example: "acemq-gen generate -o . ./contracts\n//go:generate go tool acemq-gen generate -o . ./contracts", run: generate},
		{name: "check", args: "[-o DIR] [--asyncapi] PATH...", summary: "exit 1, printing a diff, when DIR is not what generate would write",
			about: `Check compares DIR with what generate would write and exits 1, printing a
diff on stdout, when a generated file is missing, edited or stale. Run it in
CI to catch a contract changed without go generate.

flags:
  -o, --output DIR   the output directory (default .)
  --asyncapi         check the AsyncAPI documents too, as generate --asyncapi
                     writes them`,
			example: "acemq-gen check -o . ./contracts", run: check},
		{name: "asyncapi", args: "[-o DIR] [--format yaml|json] [--server NAME=URL] PATH...", summary: "write one AsyncAPI 3.0 document per domain into DIR",
			about: `AsyncAPI writes DIR/<domain>.asyncapi.yaml (or .json), one AsyncAPI 3.0.0
document per domain from the point of view of its owning service: a channel
per message address with its AMQP bindings, send operations for the events,
receive operations for the commands and the RPC requests (the reply through
the operation's reply object), every message with its content type, payload
schema (Avro for the avro codecs, JSON Schema otherwise) and headers. It
removes the documents no domain writes any longer.

flags:
  -o, --output DIR      the output directory (default .)
  --format yaml|json    the documents' format (default yaml)
  --server NAME=URL     a server entry, amqp:// or amqps://, its path the
                        virtual host; repeatable (default: none)`,
			example: "acemq-gen asyncapi -o docs/asyncapi ./contracts\nacemq-gen asyncapi --format json --server production=amqps://rabbit.example.com/ ./contracts", run: asyncapiCmd},
		{name: "vet", args: "PATH...", summary: "validate only; warnings for deprecated use",
			about: `Vet validates the contracts under PATH without writing anything. Errors exit
1; warnings (a deprecated message, type or field in use) are printed and exit
0. When it finds nothing it says so in one line.`,
			example: "acemq-gen vet ./contracts", run: vet},
		{name: "compat", args: "--against BASE | --history [--since REV] [--full] PATH...", summary: "exit 1 when a change breaks readers or writers built from BASE or any committed version",
			about: `Compat compares the contracts under PATH with BASE, a released version, and
exits 1 naming each change that breaks readers or writers built from BASE:
events and RPC responses must stay readable by BASE's readers, commands and
RPC requests must read what BASE's writers send. When nothing breaks it says
so in one line.

With --history the contracts are checked, with the same rules, against every
committed version of each contract file in git (following renames): each
break names the commit (short hash and subject), the message and the field.

flags:
  --against BASE   a directory or git:REV (read with git show, no checkout)
  --history        against every commit that changed a contract file
  --since REV      with --history, only REV and the commits after it
  --full           demand both directions for every message`,
			example: "acemq-gen compat --against git:HEAD~1 ./contracts\nacemq-gen compat --history --since v1.0.0 ./contracts", run: compatCmd},
		{name: "init", args: "[-o DIR] [DOMAIN]", summary: "scaffold contracts/DOMAIN.acemq.yaml and a gen.go holding the go:generate line",
			about: `Init writes a contract to edit, DIR/contracts/DOMAIN.acemq.yaml, and DIR/gen.go
holding the line go generate runs:
  //go:generate go tool acemq-gen generate -o . ./contracts
It never overwrites a contract and keeps an existing gen.go. DOMAIN defaults
to DIR's name. The module needs the tool once:
  go get -tool github.com/acemq/acemq-gen/cmd/acemq-gen

flags:
  -o DIR   the directory to scaffold in (default .)`,
			example: "go tool acemq-gen init orders\ngo generate ./...", run: initCmd},
		{name: "dlq", args: "list|show|redrive --url URL [flags] [QUEUE] PATH...", summary: "list, show decoded and redrive the dead letters the contracts imply",
			about: dlqAbout, example: dlqExample, run: dlqCmd},
		{name: "plan", args: "--url URL [--management URL] [--service S]... [--apply] PATH...", summary: "compare the contracts' topology with a live broker; exit 1 when it differs",
			about: planAbout, example: planExample, run: planCmd},
		{name: "registry", args: "push|check --url URL [flags] [PATH...]", summary: "register the avro-registered schemas, or exit 1 when one would break what the registry holds",
			about: registryAbout, example: registryExample, run: registryCmd},
		{name: "version", summary: "print the version",
			about:   "Version prints the module version acemq-gen was built from, or (devel).",
			example: "acemq-gen version", run: versionCmd},
		{name: "help", args: "[COMMAND]", summary: "list the commands, or show a command's usage, flags and an example",
			about:   "Help lists the commands, or shows COMMAND's usage, flags and an example;\nacemq-gen COMMAND -h does the same.",
			example: "acemq-gen help compat", run: helpCmd},
	}
}

// lookup finds a command by name.
func lookup(name string) (command, bool) {
	cs := commands()
	i := slices.IndexFunc(cs, func(c command) bool { return c.name == name })
	if i < 0 {
		return command{}, false
	}
	return cs[i], true
}

func commandNames() []string {
	var names []string
	for _, c := range commands() {
		names = append(names, c.name)
	}
	return names
}

// synopsis is the command's usage line.
func (c command) synopsis() string {
	return strings.TrimSpace("usage: acemq-gen " + c.name + " " + c.args)
}

// printUsage lists the commands.
func printUsage(w io.Writer) {
	fmt.Fprint(w, "acemq-gen turns acemq contracts into typed Go messaging code.\n\nusage: acemq-gen COMMAND [flags] [arguments]\n\ncommands:\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, c := range commands() {
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", c.name, c.args, c.summary)
	}
	tw.Flush()
	fmt.Fprint(w, `
PATH is a contract file or a directory searched for *.acemq.yaml, *.acemq.yml and *.avsc.
Exit codes: 0 ok, 1 findings, 2 usage.
Run "acemq-gen help COMMAND" for a command's flags and an example.
`)
}

// printHelp writes c's usage, description and example.
func (c command) printHelp(w io.Writer) {
	fmt.Fprintf(w, "%s\n\n%s\n\nexample:\n  %s\n", c.synopsis(), c.about, strings.ReplaceAll(c.example, "\n", "\n  "))
}

// usageError reports a usage mistake of c on stderr, with c's usage line,
// and returns exitUsage.
func (c command) usageError(stderr io.Writer, format string, args ...any) int {
	fmt.Fprintf(stderr, "acemq-gen %s: %s\n%s\nRun \"acemq-gen help %s\" for more.\n", c.name, fmt.Sprintf(format, args...), c.synopsis(), c.name)
	return exitUsage
}

// unknownCommand reports name on stderr with the nearest command, if any.
func unknownCommand(name string, stderr io.Writer) int {
	fmt.Fprintf(stderr, "acemq-gen: unknown command %q%s\nRun \"acemq-gen help\" for the commands.\n", name, didYouMean(suggest(name, commandNames())))
	return exitUsage
}

// didYouMean is "; did you mean "s"?", or "" when s is.
func didYouMean(s string) string {
	if s == "" {
		return ""
	}
	return fmt.Sprintf("; did you mean %q?", s)
}

// helpCmd is acemq-gen help [COMMAND].
func helpCmd(_ context.Context, args []string, stdout, stderr io.Writer) int {
	self, _ := lookup("help")
	fs := newFlags(self)
	if code, ok := parseFlags(self, fs, args, stdout, stderr); !ok {
		return code
	}
	switch fs.NArg() {
	case 0:
		printUsage(stdout)
		return exitOK
	case 1:
		c, ok := lookup(fs.Arg(0))
		if !ok {
			return unknownCommand(fs.Arg(0), stderr)
		}
		c.printHelp(stdout)
		return exitOK
	}
	return self.usageError(stderr, "name one command")
}

func versionCmd(_ context.Context, args []string, stdout, stderr io.Writer) int {
	self, _ := lookup("version")
	if code, ok := parseFlags(self, newFlags(self), args, stdout, stderr); !ok {
		return code
	}
	fmt.Fprintln(stdout, "acemq-gen", version())
	return exitOK
}
