package main

import (
	"context"
	"errors"
	"fmt"
	"go/token"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/output"
	"github.com/acemq/acemq-gen/generator"
	"github.com/acemq/acemq-gen/templates"
	"golang.org/x/mod/modfile"
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
		domain = defaultDomain(*dir)
	}
	if !generator.ValidDomain(domain) {
		fmt.Fprintf(stderr, "acemq-gen init: bad domain %q: lower-case words joined by '-', such as orders\n", domain)
		return exitUsage
	}
	return scaffold(*dir, templates.Scaffold{Domain: domain, Package: packageOf(*dir)}, stdout, stderr)
}

func scaffold(dir string, s templates.Scaffold, stdout, stderr io.Writer) int {
	files, err := templates.Init(s)
	for _, f := range files {
		if err == nil {
			err = output.CheckPath(dir, f.Name)
		}
		if err != nil {
			break
		}
		err = scaffoldFile(filepath.Join(dir, filepath.FromSlash(f.Name)), f.Data, stdout)
	}
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitFindings
	}
	if !hasTool(dir) {
		fmt.Fprintf(stdout, "next: go get -tool %s (once per module; gen.go runs it with go tool), then go generate ./...\n", toolPath)
	}
	return exitOK
}

// toolPath is the package the go:generate line of gen.go runs with go tool.
const toolPath = "github.com/acemq/acemq-gen/cmd/acemq-gen"

// hasTool reports whether the go.mod nearest above dir already holds the
// tool directive for acemq-gen.
func hasTool(dir string) bool {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return false
	}
	for ; ; abs = filepath.Dir(abs) {
		if data, err := os.ReadFile(filepath.Join(abs, "go.mod")); err == nil {
			f, err := modfile.Parse("go.mod", data, nil)
			return err == nil && slices.ContainsFunc(f.Tool, func(t *modfile.Tool) bool { return t.Path == toolPath })
		}
		if filepath.Dir(abs) == abs {
			return false
		}
	}
}

// scaffoldFile writes one file unless it exists: an existing contract is an
// error, an existing gen.go is kept (it already holds the go:generate line).
// The contract goes to DIR/contracts/, which the go:generate line names.
func scaffoldFile(name string, data []byte, stdout io.Writer) error {
	if _, err := os.Stat(name); !errors.Is(err, fs.ErrNotExist) {
		if filepath.Base(name) == "gen.go" {
			fmt.Fprintln(stdout, "kept", name)
			return nil
		}
		return fmt.Errorf("acemq-gen: %s already exists; init never overwrites a file", name)
	}
	if err := output.WriteFile(name, data); err != nil {
		return err
	}
	fmt.Fprintln(stdout, "wrote", name)
	return nil
}

var notIdent = regexp.MustCompile(`[^a-z0-9]+`)

// defaultDomain is the directory's name as a domain, or "example".
func defaultDomain(dir string) string {
	abs, _ := filepath.Abs(dir)
	d := strings.Trim(notIdent.ReplaceAllString(strings.ToLower(filepath.Base(abs)), "-"), "-")
	if !generator.ValidDomain(d) {
		return "example"
	}
	return d
}

// packageOf is the package of the Go files already in dir, as go/packages
// names it, or the directory's name as a package name ("contracts" when it
// is not one).
func packageOf(dir string) string {
	if _, name := output.GoPackage(dir); name != "" {
		return name
	}
	abs, _ := filepath.Abs(dir)
	p := notIdent.ReplaceAllString(strings.ToLower(filepath.Base(abs)), "")
	if p == "" || token.IsKeyword(p) || p[0] >= '0' && p[0] <= '9' {
		return "contracts"
	}
	return p
}
