package output

import (
	"os"
	"path/filepath"

	"golang.org/x/tools/go/packages"
)

// The output directory's Go package, as the go command sees it: go/packages
// runs in the directory's module, so go.work, replace directives and
// vendoring apply. A directory that does not exist yet (or holds no Go
// file) is given a probe file through an overlay, never written to disk.

// probeFile is the overlay file that makes an empty or missing directory a
// package the go command can name.
const probeFile = "acemq_gen_probe.go"

// ImportPath returns the Go import path of dir, which need not exist yet,
// or "" when dir is not inside a module (generation then fails only if one
// generated package must import another, or a contract binds a Go type).
func ImportPath(dir string) string {
	path, _ := GoPackage(dir)
	return path
}

// GoPackage returns dir's import path ("" outside a module) and the name of
// the package its Go files declare ("" when it holds none).
func GoPackage(dir string) (path, name string) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", ""
	}
	if p := loadDir(abs, nil); p != nil && p.Name != "" && len(p.Errors) == 0 {
		return p.PkgPath, p.Name
	}
	name = filesPackage(abs)
	probe := map[string][]byte{filepath.Join(abs, probeFile): []byte("package probe\n")}
	if p := loadDir(abs, probe); p != nil && p.Module != nil {
		path = p.PkgPath
	}
	return path, name
}

// loadDir loads the package of dir from its nearest existing directory;
// nil when the go command names none (outside a module).
func loadDir(dir string, overlay map[string][]byte) *packages.Package {
	base := ExistingDir(dir)
	rel, err := filepath.Rel(base, dir)
	if err != nil {
		return nil
	}
	cfg := &packages.Config{Dir: base, Mode: packages.NeedName | packages.NeedModule, Overlay: overlay}
	pkgs, err := packages.Load(cfg, "./"+filepath.ToSlash(rel))
	if err != nil || len(pkgs) != 1 {
		return nil
	}
	return pkgs[0]
}

// filesPackage is the package name dir's Go files declare, outside a module
// too (the go command loads files named on its command line anywhere).
func filesPackage(dir string) string {
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	if len(files) == 0 {
		return ""
	}
	pkgs, err := packages.Load(&packages.Config{Dir: dir, Mode: packages.NeedName}, files...)
	if err != nil || len(pkgs) == 0 {
		return ""
	}
	return pkgs[0].Name
}

// ExistingDir is dir, or its nearest parent that exists.
func ExistingDir(dir string) string {
	for {
		if st, err := os.Stat(dir); err == nil && st.IsDir() {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return dir
		}
		dir = parent
	}
}
