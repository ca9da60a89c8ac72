package main

import (
	"errors"
	"flag"
	"io"
	"strings"

	"github.com/acemq/acemq-gen/runtime/rabbitmq"
)

// newFlags returns an empty flag set for c that reports nothing itself:
// parseFlags does.
func newFlags(c command) *flag.FlagSet {
	fs := flag.NewFlagSet("acemq-gen "+c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// parseFlags parses args with fs, a set from newFlags. For -h, -help or
// --help it prints c's help to stdout and returns exitOK; for any other
// mistake it reports it on stderr, with the flag nearest to an unknown one,
// and returns exitUsage. ok is true when c goes on.
func parseFlags(c command, fs *flag.FlagSet, args []string, stdout, stderr io.Writer) (code int, ok bool) {
	err := fs.Parse(args)
	switch {
	case err == nil:
		return exitOK, true
	case errors.Is(err, flag.ErrHelp):
		c.printHelp(stdout)
		return exitOK, false
	}
	if name, found := strings.CutPrefix(err.Error(), "flag provided but not defined: -"); found {
		return c.usageError(stderr, "unknown flag %s%s", spelled(name, args), didYouMean(nearestFlag(fs, name))), false
	}
	return c.usageError(stderr, "%s", err), false
}

// nearestFlag is the flag of fs nearest to name, spelled -o or --output,
// or "".
func nearestFlag(fs *flag.FlagSet, name string) string {
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	s := suggest(name, names)
	switch len(s) {
	case 0:
		return ""
	case 1:
		return "-" + s
	}
	return "--" + s
}

// spelled is the unknown flag name as the user wrote it (-x or --x).
func spelled(name string, args []string) string {
	for _, a := range args {
		flagName, _, _ := strings.Cut(a, "=")
		if strings.TrimLeft(flagName, "-") == name && strings.HasPrefix(flagName, "-") {
			return flagName
		}
	}
	return "-" + name
}

// parseAnywhere parses args with fs, the flags allowed before, between or
// after the arguments, as in every command, and returns the arguments;
// everything after "--" is an argument. ok as parseFlags.
func parseAnywhere(c command, fs *flag.FlagSet, args []string, stdout, stderr io.Writer) (rest []string, code int, ok bool) {
	for {
		if code, ok := parseFlags(c, fs, args, stdout, stderr); !ok {
			return nil, code, false
		}
		if fs.NArg() == 0 {
			return rest, exitOK, true
		}
		if n := len(args) - fs.NArg(); n > 0 && args[n-1] == "--" {
			return append(rest, fs.Args()...), exitOK, true
		}
		rest, args = append(rest, fs.Arg(0)), fs.Args()[1:]
	}
}

// outputFlag adds -o and its long form --output to fs, both setting dir
// (default "."): every short flag has its long form.
func outputFlag(fs *flag.FlagSet, dir *string, usage string) {
	fs.StringVar(dir, "o", ".", usage)
	fs.StringVar(dir, "output", ".", usage+"; the same as -o")
}

// badBrokerURL is the usage error of --url, the broker of dlq and plan
// (who names the command), or "" when raw is usable: an amqp:// or amqps://
// URL with one host or several (amqp://user:pass@h1:5672,h2:5672/vhost),
// parsed as Connect parses it. memory:// is refused: it is a broker inside
// one program, and acemq-gen's own process holds an empty one. No error
// quotes raw.
func badBrokerURL(who, raw string) string {
	if raw == "" {
		return who + " needs --url, the broker's URL, such as amqp://user:pass@host:5672/vhost"
	}
	if scheme, _, _ := strings.Cut(raw, "://"); strings.EqualFold(scheme, "memory") {
		return "--url: memory:// is a broker inside one program, and acemq-gen runs in a process of its own " +
			"where it is always empty: name the amqp:// or amqps:// broker your services use"
	}
	if bad := badURLFlag("--url", raw); bad != "" {
		return bad
	}
	if _, err := rabbitmq.HostURLs(raw); err != nil {
		return "--url: " + strings.TrimPrefix(err.Error(), "rabbitmq: ")
	}
	return ""
}
