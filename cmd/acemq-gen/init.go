package main

import (
	"context"
	"fmt"
	"io"

	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/scaffold"
	"github.com/acemq/acemq-gen/generator"
	"github.com/acemq/acemq-gen/templates"
)

// initCmd scaffolds contracts/DOMAIN.acemq.yaml and gen.go in DIR; it never
// overwrites a contract.
func initCmd(_ context.Context, args []string, stdout, stderr io.Writer) int {
	self, _ := lookup("init")
	fset := newFlags(self)
	dir := "."
	outputFlag(fset, &dir, "`DIR` to scaffold in")
	rest, code, ok := parseAnywhere(self, fset, args, stdout, stderr)
	if !ok {
		return code
	}
	if len(rest) > 1 {
		return self.usageError(stderr, "name at most one domain")
	}
	domain := scaffold.DefaultDomain(dir)
	if len(rest) == 1 {
		domain = rest[0]
	}
	if !generator.ValidDomain(domain) {
		fmt.Fprintf(stderr, "acemq-gen init: bad domain %q: lower-case words joined by '-', such as orders\n", domain)
		return exitUsage
	}
	if err := scaffold.Write(dir, templates.Scaffold{Domain: domain, Package: scaffold.PackageOf(dir)}, stdout); err != nil {
		fmt.Fprintln(stderr, err)
		return exitFindings
	}
	return exitOK
}
