package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/compat"
	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/dlq"
	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/graph"
	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/plan"
	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/registry"
	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/site"
)

// A command is one acemq-gen subcommand and its help.
type command struct {
	name    string
	args    string   // the synopsis after the name: [-o DIR] PATH...
	summary string   // one line in the command list
	subs    []string // its subcommands, if any
	about   string   // help <command>: what it does, its flags and arguments
	example string   // help <command>: command lines to copy, one a line
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) int
}

// commands lists every command in the order help shows them.
func commands() []command {
	return []command{
		{name: "generate", args: "[-o DIR] [--asyncapi] PATH...", summary: "write one package per domain into DIR/<package>/",
			about:   generateAbout,
			example: "acemq-gen generate -o . ./contracts\n//go:generate go tool acemq-gen generate -o . ./contracts", run: generate},
		{name: "check", args: "[-o DIR] [--asyncapi] PATH...", summary: "exit 1, printing a diff, when DIR is not what generate would write",
			about:   checkAbout,
			example: "acemq-gen check -o . ./contracts", run: check},
		{name: "asyncapi", args: "[-o DIR] [--format yaml|json] [--server NAME=URL] PATH...", summary: "write one AsyncAPI 3.0 document per domain into DIR",
			about:   asyncapiAbout,
			example: "acemq-gen asyncapi -o docs/asyncapi ./contracts\nacemq-gen asyncapi --format json --server production=amqps://rabbit.example.com/ ./contracts", run: asyncapiCmd},
		{name: "vet", args: "PATH...", summary: "validate only; warnings for deprecated use",
			about:   vetAbout,
			example: "acemq-gen vet ./contracts", run: vet},
		{name: "compat", args: "--against BASE | --history [--since REV] [--full] [--usage FILE] PATH...", summary: "exit 1 when a change breaks readers or writers built from BASE or any committed version",
			about: compat.About, example: compat.Example, run: compatCmd},
		{name: "graph", args: "[--format F] [--check] [--against git:REV] MODULE...",
			summary: "who publishes, consumes and serves what, and the fields each reads, from the services' Go code",
			about:   graph.About, example: graph.Example, run: graphCmd},
		{name: "init", args: "[-o DIR] [DOMAIN]", summary: "scaffold contracts/DOMAIN.acemq.yaml and a gen.go holding the go:generate line",
			about:   initAbout,
			example: "go tool acemq-gen init orders\ngo generate ./...", run: initCmd},
		{name: "dlq", subs: []string{"list", "show", "redrive"}, args: "list|show|redrive --url URL [flags] [QUEUE] PATH...", summary: "list, show decoded and redrive the dead letters the contracts imply",
			about: dlq.About, example: dlq.Example, run: dlqCmd},
		{name: "plan", args: "--url URL [--management URL] [--service S]... [--apply] PATH...", summary: "compare the contracts' topology with a live broker; exit 1 when it differs",
			about: plan.About, example: plan.Example, run: planCmd},
		{name: "catalog", args: "-o DIR [--usage FILE] [--history] [--since REV] [--check] PATH...", summary: "write the contract catalog, a static site of every domain, message, type, queue and service",
			about: site.About, example: site.Example, run: catalogCmd},
		{name: "registry", subs: []string{"push", "check"}, args: "push|check --url URL [flags] [PATH...]", summary: "register the avro-registered schemas, or exit 1 when one would break what the registry holds",
			about: registry.About, example: registry.Example, run: registryCmd},
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

// helpCmd is acemq-gen help [COMMAND].
func helpCmd(_ context.Context, args []string, stdout, stderr io.Writer) int {
	self, _ := lookup("help")
	rest, code, ok := parseAnywhere(self, newFlags(self), args, stdout, stderr)
	if !ok {
		return code
	}
	switch len(rest) {
	case 0:
		printUsage(stdout)
		return exitOK
	case 1:
		c, ok := lookup(rest[0])
		if !ok {
			return unknownCommand(rest[0], stderr)
		}
		c.printHelp(stdout)
		return exitOK
	}
	return self.usageError(stderr, "name one command")
}

func versionCmd(_ context.Context, args []string, stdout, stderr io.Writer) int {
	self, _ := lookup("version")
	rest, code, ok := parseAnywhere(self, newFlags(self), args, stdout, stderr)
	if !ok {
		return code
	}
	if len(rest) > 0 {
		return self.usageError(stderr, "version takes no arguments")
	}
	fmt.Fprintln(stdout, "acemq-gen", version())
	return exitOK
}
