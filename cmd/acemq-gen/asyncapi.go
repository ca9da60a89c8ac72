package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/ops"
	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/output"
	"github.com/acemq/acemq-gen/generator"
)

// serverFlags collect --server NAME=URL, in order. A value that is not
// NAME=URL is counted, not refused: the flag package would quote it in its
// error, and it may be a URL with a password.
type serverFlags struct {
	opts []generator.AsyncAPIOption
	bad  int
}

func (s *serverFlags) String() string { return "" }

func (s *serverFlags) Set(v string) error {
	name, url, ok := strings.Cut(v, "=")
	if !ok || name == "" || url == "" {
		s.bad++
		return nil
	}
	s.opts = append(s.opts, generator.AsyncAPIServer(name, url))
	return nil
}

// asyncapiCmd is acemq-gen asyncapi: one AsyncAPI 3.0 document per domain
// into DIR, removing the documents no domain writes any longer.
func asyncapiCmd(_ context.Context, args []string, stdout, stderr io.Writer) int {
	self, _ := lookup("asyncapi")
	fs := newFlags(self)
	dir, format, srvs := ".", "yaml", serverFlags{}
	outputFlag(fs, &dir, "output `DIR`")
	fs.StringVar(&format, "format", "yaml", "yaml or json")
	fs.Var(&srvs, "server", "a server entry `NAME=URL`; repeatable")
	paths, code, ok := parseAnywhere(self, fs, args, stdout, stderr)
	if !ok {
		return code
	}
	if srvs.bad > 0 {
		return self.usageError(stderr, "--server wants NAME=URL, such as production=amqps://rabbit.example.com/ (the value given is not shown: it may hold a password)")
	}
	if err := generator.CheckAsyncAPIOptions(srvs.opts...); err != nil {
		return self.usageError(stderr, "--%s", err)
	}
	if format != "yaml" && format != "json" {
		return self.usageError(stderr, "--format is yaml or json, not %q", format)
	}
	if len(paths) == 0 {
		return self.usageError(stderr, "name at least one contract file or directory")
	}
	srcs, ok := ops.ReadSources(paths, stderr)
	if !ok {
		return exitFindings
	}
	res := generator.AsyncAPI(srcs, append(srvs.opts, generator.AsyncAPIFormat(format))...)
	if ops.PrintDiagnostics(res.Diagnostics, stderr) {
		return exitFindings
	}
	if err := output.Write(dir, res.Files); err != nil {
		fmt.Fprintln(stderr, err)
		return exitFindings
	}
	return exitOK
}
