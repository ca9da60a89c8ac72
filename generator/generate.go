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

// Generate parses, resolves, validates and emits the contracts in srcs. The
// output depends only on the sources' paths and bytes, never on their order.
// Diagnostics carry errors only; Vet adds warnings. Safe for concurrent use.
func Generate(srcs []Source) (res Result) {
	defer recoverInternal(&res.Diagnostics)
	m, ds := Build(srcs)
	if ds.HasErrors() {
		return Result{Diagnostics: ds.Errors()}
	}
	files, err := emitModel(m)
	if err != nil {
		return Result{Diagnostics: Diagnostics{{Pos: Pos{File: "acemq-gen"}, Message: err.Error()}}}
	}
	return Result{Files: files}
}

// Vet validates the contracts in srcs and returns every error and warning
// (deprecated messages, types and fields).
func Vet(srcs []Source) (ds Diagnostics) {
	defer recoverInternal(&ds)
	_, ds = Build(srcs)
	return ds
}

// recoverInternal turns a panic, always a bug of acemq-gen, into a
// diagnostic, so a contract can never crash the command.
func recoverInternal(ds *Diagnostics) {
	if p := recover(); p != nil {
		*ds = append(*ds, Diagnostic{Pos: Pos{File: "acemq-gen"}, Message: fmt.Sprintf("internal error: %v (please report it with the contract)", p)})
	}
}

// Build parses, resolves and validates the contracts in srcs into a model,
// returning it with every diagnostic (errors and warnings). The model is
// only complete when the diagnostics hold no error.
func Build(srcs []Source) (*Model, Diagnostics) {
	d := &diags{}
	m := &Model{}
	for _, src := range sortedSources(srcs) {
		f := parseContract(src, d)
		if f == nil {
			continue
		}
		if dom := resolveContract(f, d); dom != nil {
			m.Domains = append(m.Domains, dom)
		}
	}
	validateModel(m, d)
	return m, d.sorted()
}

// sortedSources orders the sources by path and reads a path named twice once.
func sortedSources(srcs []Source) []Source {
	out := slices.Clone(srcs)
	slices.SortStableFunc(out, func(a, b Source) int { return cmp.Compare(a.Path, b.Path) })
	return slices.CompactFunc(out, func(a, b Source) bool { return a.Path == b.Path })
}
