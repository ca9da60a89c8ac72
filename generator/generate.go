package generator

import (
	"cmp"
	"fmt"
	"slices"
)

// Source is one contract file: its path as the user named it (used in
// diagnostics) and its bytes.
type Source struct {
	Path string
	Data []byte
}

// File is one generated file; Path is slash-separated and relative to the
// output directory (orders/orders.acemq.go).
type File struct {
	Path string
	Data []byte
}

// Result is what one generation produced: the files, when there were no
// errors, and every diagnostic.
type Result struct {
	Files       []File
	Diagnostics Diagnostics
}

// Option configures Generate.
type Option func(*config)

type config struct {
	importPath string
	moduleDir  string
}

// ImportPath sets the Go import path of the output directory (DIR of
// generate -o DIR), which generated packages need to import each other: a
// domain that uses a type library's or another domain's types. Default: none,
// and such a run fails with a diagnostic naming the package.
func ImportPath(p string) Option { return func(c *config) { c.importPath = p } }

// ModuleDir names the directory go/packages loads the Go types that
// contracts bind to (go: example.com/shared/money.Amount in types:) from: an
// existing directory of the output directory's Go module, the output
// directory itself or, when it does not exist yet, its nearest existing
// parent. That module's go.work, replace directives and vendoring apply,
// and the environment's GOFLAGS. The packages are loaded once per run, and
// read only. Default: none, and a contract that binds a type fails with a
// diagnostic; Vet without it checks a binding's syntax and what a bound
// record may hold, not the Go type.
func ModuleDir(dir string) Option { return func(c *config) { c.moduleDir = dir } }

func newConfig(opts []Option) config {
	var cfg config
	for _, opt := range opts {
		if opt != nil {
			opt(&cfg)
		}
	}
	return cfg
}

// Generate parses, resolves, validates and emits the contracts in srcs. The
// output depends only on the sources' paths and bytes and the options, never
// on the sources' order. Diagnostics carry errors only; Vet adds warnings.
// Safe for concurrent use.
func Generate(srcs []Source, opts ...Option) (res Result) {
	defer recoverInternal(&res.Diagnostics)
	cfg := newConfig(opts)
	m, ds := buildWith(srcs, cfg, true)
	if ds.HasErrors() {
		return Result{Diagnostics: ds.Errors()}
	}
	files, err := emitModel(m, cfg)
	if err != nil {
		return Result{Diagnostics: Diagnostics{{Pos: Pos{File: "acemq-gen"}, Message: err.Error()}}}
	}
	return Result{Files: files}
}

// Vet validates the contracts in srcs and returns every error and warning
// (deprecated messages, types and fields). With ModuleDir it also checks
// bound types against their Go types, as Generate always does.
func Vet(srcs []Source, opts ...Option) (ds Diagnostics) {
	defer recoverInternal(&ds)
	cfg := newConfig(opts)
	_, ds = buildWith(srcs, cfg, cfg.moduleDir != "")
	return ds
}

// recoverInternal turns a panic, always a bug of acemq-gen, into a
// diagnostic, so a contract can never crash the command.
func recoverInternal(ds *Diagnostics) {
	if p := recover(); p != nil {
		*ds = append(*ds, Diagnostic{Pos: Pos{File: "acemq-gen"}, Message: fmt.Sprintf("internal error: %v (please report it with the contract)", p)})
	}
}

// build is buildWith without the Go types' check.
func build(srcs []Source) (*model, Diagnostics) { return buildWith(srcs, config{}, false) }

// buildWith parses, resolves and validates the contracts in srcs into a model,
// returning it with every diagnostic (errors and warnings); bound types are
// checked against their Go types when goTypes is set and nothing else
// failed. The model is only complete when the diagnostics hold no error.
func buildWith(srcs []Source, cfg config, goTypes bool) (*model, Diagnostics) {
	d := &diags{}
	var files []*syntaxFile
	for _, src := range sortedSources(srcs) {
		if f := parseSource(src, d); f != nil {
			files = append(files, f)
		}
	}
	shareDomainSettings(files, d)
	w := newWorld(d)
	for _, f := range files {
		w.add(f)
	}
	m := &model{Domains: w.resolve()}
	validateModel(m, d)
	if goTypes && !d.list.HasErrors() {
		checkGoTypes(m, cfg, d)
	}
	return m, d.sorted()
}

// sortedSources orders the sources by path and reads a path named twice once.
func sortedSources(srcs []Source) []Source {
	out := slices.Clone(srcs)
	slices.SortStableFunc(out, func(a, b Source) int { return cmp.Compare(a.Path, b.Path) })
	return slices.CompactFunc(out, func(a, b Source) bool { return a.Path == b.Path })
}

// Count returns how many contracts (domains) and messages (events, commands
// and RPCs) srcs describe; contracts that do not build count as none.
func Count(srcs []Source) (contracts, messages int) {
	m, _ := build(srcs)
	if m == nil {
		return 0, 0
	}
	for _, d := range m.Domains {
		messages += len(d.Messages) + len(d.Streams) + len(d.RPCs)
	}
	return len(m.Domains), messages
}
