// Package scaffold is acemq-gen init: a first contract to edit and the gen.go
// that runs acemq-gen through go generate.
package scaffold

import (
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

// Write writes the files of s into dir: contracts/DOMAIN.acemq.yaml and
// gen.go. It never overwrites a contract, keeps an existing gen.go and
// writes only regular files inside dir. It says what it did on stdout, and
// the go get -tool line to run when the module lacks the tool.
func Write(dir string, s templates.Scaffold, stdout io.Writer) error {
	files, err := templates.Init(s)
	for _, f := range files {
		if err == nil {
			err = output.CheckPath(dir, f.Name)
		}
		if err != nil {
			return err
		}
		if err = scaffoldFile(filepath.Join(dir, filepath.FromSlash(f.Name)), f.Data, stdout); err != nil {
			return err
		}
	}
	if err == nil && !hasTool(dir) {
		fmt.Fprintf(stdout, "next: go get -tool %s (once per module; gen.go runs it with go tool), then go generate ./...\n", ToolPath)
	}
	return err
}

// ToolPath is the package the go:generate line of gen.go runs with go tool.
const ToolPath = "github.com/acemq/acemq-gen/cmd/acemq-gen"

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
			return err == nil && slices.ContainsFunc(f.Tool, func(t *modfile.Tool) bool { return t.Path == ToolPath })
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

// DefaultDomain is the directory's name as a domain, or "example".
func DefaultDomain(dir string) string {
	abs, _ := filepath.Abs(dir)
	d := strings.Trim(notIdent.ReplaceAllString(strings.ToLower(filepath.Base(abs)), "-"), "-")
	if !generator.ValidDomain(d) {
		return "example"
	}
	return d
}

// PackageOf is the package of the Go files already in dir, as go/packages
// names it; with none, main at a module's root (where a service's main.go
// goes, as in README's tutorial) and elsewhere the directory's name as a
// package name ("contracts" when it is not one).
func PackageOf(dir string) string {
	if _, name := output.GoPackage(dir); name != "" {
		return name
	}
	abs, _ := filepath.Abs(dir)
	if _, err := os.Stat(filepath.Join(abs, "go.mod")); err == nil {
		return "main"
	}
	p := notIdent.ReplaceAllString(strings.ToLower(filepath.Base(abs)), "")
	if p == "" || token.IsKeyword(p) || p[0] >= '0' && p[0] <= '9' {
		return "contracts"
	}
	return p
}
