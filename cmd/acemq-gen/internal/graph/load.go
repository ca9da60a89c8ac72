package graph

import (
	"errors"
	"fmt"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"golang.org/x/mod/modfile"
	"golang.org/x/tools/go/packages"
)

// loadMode is what the analysis needs: syntax and types of the loaded
// packages, the types of their dependencies from export data.
const loadMode = packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedTypes |
	packages.NeedTypesInfo | packages.NeedModule | packages.NeedImports

// ErrLoad is the error of a module or package that cannot be loaded.
var ErrLoad = errors.New("graph: loading packages")

// load loads every argument: a directory (a module, a go.work or a folder
// of one: all its packages) or a package pattern, both relative to base
// ("" the working directory). Each is a go list of its own: the first
// alone (it compiles the dependencies the services share, generated
// packages and runtime, into the build cache once), then the others
// loadParallel at a time.
func load(fset *token.FileSet, base string, args []string) ([]*packages.Package, error) {
	got := make([][]*packages.Package, len(args))
	errs := make([]error, len(args))
	sem := make(chan struct{}, loadParallel)
	var wg sync.WaitGroup
	for i, arg := range args {
		dir, patterns := base, []string{arg}
		if p := filepath.Join(base, arg); isDir(p) {
			dir, patterns = p, dirPatterns(p)
		}
		if i == 0 {
			got[i], errs[i] = loadOne(fset, dir, patterns)
			continue
		}
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			got[i], errs[i] = loadOne(fset, dir, patterns)
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return slices.Concat(got...), nil
}

// loadParallel is how many go list commands load runs at once.
const loadParallel = 4

// dirPatterns are the patterns of every package of the directory dir: of
// each module its go.work uses when it holds one (./... does not reach
// them), else ./...
func dirPatterns(dir string) []string {
	data, err := os.ReadFile(filepath.Join(dir, "go.work"))
	if err != nil {
		return []string{"./..."}
	}
	wf, err := modfile.ParseWork("go.work", data, nil)
	if err != nil || len(wf.Use) == 0 {
		return []string{"./..."} // go list says what is wrong with it
	}
	var out []string
	for _, u := range wf.Use {
		p := filepath.ToSlash(filepath.Clean(u.Path))
		if !filepath.IsAbs(u.Path) {
			p = "./" + p
		}
		out = append(out, p+"/...")
	}
	return out
}

func loadOne(fset *token.FileSet, dir string, patterns []string) ([]*packages.Package, error) {
	abs, _ := filepath.Abs(dir)
	cfg := &packages.Config{Mode: loadMode, Dir: abs, Fset: fset}
	pattern := strings.Join(patterns, " ")
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrLoad, pattern, err)
	}
	var errs []error
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			errs = append(errs, errors.New(e.Error()))
		}
	})
	if len(errs) > 0 {
		return nil, fmt.Errorf("%w: %w", ErrLoad, errors.Join(errs...))
	}
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("%w: %s matches no package%s", ErrLoad, pattern, goListSays(dir, patterns))
	}
	return pkgs, nil
}

// goListSays is what go list says of pattern in dir when it fails (a
// go.mod needing an update, say), which go/packages does not pass on.
func goListSays(dir string, patterns []string) string {
	cmd := exec.Command("go", append([]string{"list", "-find", "--"}, patterns...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err == nil {
		return ""
	}
	return ": " + strings.TrimSpace(string(out))
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}
