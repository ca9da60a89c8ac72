package graph

import (
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/sysgraph"
)

// analysis is one run over the loaded packages.
type analysis struct {
	fset    *token.FileSet
	gens    map[string]*genPkg // by package path; nil: not generated
	loaded  map[string]bool    // the loaded packages' paths
	records map[string]*types.Named
	holds   map[types.Type][]string
	leaky   map[string]string // generic function's full name → why it leaks
	mods    map[string]*module
	pkgMod  map[string]*module  // loaded package path → its module
	imports map[string][]string // loaded package path → what it imports
}

// srcFile is one loaded, hand-written file.
type srcFile struct {
	mod  *module
	info *types.Info
	file *ast.File
}

// Build loads the modules, directories or package patterns in args and
// returns their system graph.
func Build(args []string) (*sysgraph.Graph, error) { return BuildIn("", args) }

// BuildIn is Build with args relative to the directory base (a checkout
// of another revision).
func BuildIn(base string, args []string) (*sysgraph.Graph, error) {
	a := &analysis{fset: token.NewFileSet(), gens: map[string]*genPkg{}, loaded: map[string]bool{},
		records: map[string]*types.Named{}, holds: map[types.Type][]string{}, leaky: map[string]string{},
		mods: map[string]*module{}, pkgMod: map[string]*module{}, imports: map[string][]string{}}
	pkgs, err := load(a.fset, base, args)
	if err != nil {
		return nil, err
	}
	files := a.sources(pkgs)
	a.findLeaky(files)
	for _, sf := range files {
		a.scanUses(sf.mod, sf.info, sf.file)
		a.scanReads(sf.mod, sf.info, sf.file)
	}
	return a.graph(), nil
}

// sources lists the hand-written files of the loaded packages, each with
// its module, and notes the packages as loaded.
func (a *analysis) sources(pkgs []*packages.Package) []srcFile {
	var out []srcFile
	for _, p := range pkgs {
		a.loaded[p.PkgPath] = true
		a.generated(p.Types) // known before reach skips generated packages
		m := a.module(p)
		a.pkgMod[p.PkgPath] = m
		for path := range p.Imports {
			a.imports[p.PkgPath] = append(a.imports[p.PkgPath], path)
		}
		for _, f := range p.Syntax {
			if !isGeneratedFile(f) {
				out = append(out, srcFile{mod: m, info: p.TypesInfo, file: f})
			}
		}
	}
	return out
}

// module is the module p is in (its directory when it has none).
func (a *analysis) module(p *packages.Package) *module {
	path, dir := p.PkgPath, ""
	if len(p.GoFiles) > 0 {
		dir = filepath.Dir(p.GoFiles[0])
	}
	if p.Module != nil {
		path, dir = p.Module.Path, p.Module.Dir
	}
	if m, ok := a.mods[path]; ok {
		return m
	}
	m := &module{path: path, dir: dir, reads: map[string]map[string][]string{}, escapes: map[string][]escapeAt{}}
	a.mods[path] = m
	return m
}

// generated is p as a generated package, or nil (cached by path).
func (a *analysis) generated(p *types.Package) *genPkg {
	if p == nil {
		return nil
	}
	g, ok := a.gens[p.Path()]
	if !ok {
		g = asGenerated(p)
		a.gens[p.Path()] = g
	}
	return g
}

// isLoaded reports whether p's code is in sight: loaded, or generated.
func (a *analysis) isLoaded(p *types.Package) bool {
	return a.loaded[p.Path()] || a.generated(p) != nil
}

// module is one Go module's findings.
type module struct {
	path, dir string
	uses      []rawUse
	reads     map[string]map[string][]string // record → field → positions
	escapes   map[string][]escapeAt          // record → why every field is read
}

// escapeAt is one reason every field of a record is read, and where.
type escapeAt struct{ why, pos string }

func (e escapeAt) String() string { return e.why + " at " + e.pos }

func (m *module) add(u rawUse) { m.uses = append(m.uses, u) }

// pos renders p as file:line, the file relative to the module's root.
func (m *module) pos(fset *token.FileSet, p token.Pos) string {
	at := fset.Position(p)
	file := at.Filename
	if rel, err := filepath.Rel(m.dir, file); err == nil && !strings.HasPrefix(rel, "..") {
		file = filepath.ToSlash(rel)
	}
	return file + ":" + strconv.Itoa(at.Line)
}

// read records field of record read at pos.
func (m *module) read(record, field, pos string) {
	if m.reads[record] == nil {
		m.reads[record] = map[string][]string{}
	}
	if !slices.Contains(m.reads[record][field], pos) {
		m.reads[record][field] = append(m.reads[record][field], pos)
	}
}

// escape records that every field of record is read, and why.
func (m *module) escape(record, why, pos string) {
	e := escapeAt{why: why, pos: pos}
	if !slices.Contains(m.escapes[record], e) {
		m.escapes[record] = append(m.escapes[record], e)
	}
}
