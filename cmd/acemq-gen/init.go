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
	dir := fset.String("o", ".", "`DIR` to scaffold in")
	if code, ok := parseFlags(self, fset, args, stdout, stderr); !ok {
		return code
	}
	if fset.NArg() > 1 {
		return self.usageError(stderr, "name at most one domain")
	}
	domain := fset.Arg(0)
	if domain == "" {
		domain = scaffold.DefaultDomain(*dir)
	}
	if !generator.ValidDomain(domain) {
		fmt.Fprintf(stderr, "acemq-gen init: bad domain %q: lower-case words joined by '-', such as orders\n", domain)
		return exitUsage
	}
	if err := scaffold.Write(*dir, templates.Scaffold{Domain: domain, Package: scaffold.PackageOf(*dir)}, stdout); err != nil {
		fmt.Fprintln(stderr, err)
		return exitFindings
	}
	return exitOK
}
