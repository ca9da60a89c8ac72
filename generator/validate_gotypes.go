package generator

import (
	"fmt"
	"go/types"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"golang.org/x/tools/go/packages"
)

// The Go types bound types name are loaded once per run with go/packages in
// the module of the output directory (ModuleDir), so that module's go.work,
// replace directives and vendoring decide which code is checked, and
// go/types compares each with the contract. Every mismatch is a diagnostic
// at the type's go: key that names the Go declaration's file:line:col,
// relative to the directory of the module that holds it.

// loadMode is what a bound type's check needs of its package: its types,
// type-checked from source so positions are exact, and its module for
// relative paths.
const loadMode = packages.NeedName | packages.NeedFiles | packages.NeedTypes | packages.NeedSyntax |
	packages.NeedTypesInfo | packages.NeedModule

// checkGoTypes checks every bound type of m against the Go type it names.
func checkGoTypes(m *model, cfg config, d *diags) {
	recs := boundTypes(m)
	if len(recs) == 0 {
		return
	}
	if cfg.moduleDir == "" {
		for _, rec := range recs {
			d.errorf(rec.Go.Pos, "type %s is bound to %s, which is loaded in the output directory's Go module: generate into a directory of a Go module", rec.Name, rec.Go)
		}
		return
	}
	pkgs, err := loadBound(cfg.moduleDir, recs)
	for _, rec := range recs {
		if err != nil {
			d.errorf(rec.Go.Pos, "type %s is bound to %s, but go/packages cannot load it: %v", rec.Name, rec.Go, err)
			continue
		}
		checkBinding(rec, pkgs[rec.Go.Path], cfg, d)
	}
}

// loadBound loads the packages recs name in one go/packages run, by path.
func loadBound(dir string, recs []*recordModel) (map[string]*packages.Package, error) {
	var paths []string
	for _, rec := range recs {
		paths = append(paths, rec.Go.Path)
	}
	slices.Sort(paths)
	pkgs, err := packages.Load(&packages.Config{Dir: dir, Mode: loadMode}, slices.Compact(paths)...)
	if err != nil {
		return nil, err
	}
	out := map[string]*packages.Package{}
	for _, p := range pkgs {
		out[p.PkgPath] = p
	}
	return out, nil
}

// binding is one bound type being checked against its Go type.
type binding struct {
	rec *recordModel
	pkg *packages.Package
	cfg config
	d   *diags
}

// errorf reports a mismatch: "type Money is bound to example.com/shared/money.Amount, <what>".
func (b binding) errorf(format string, args ...any) {
	b.d.errorf(b.rec.Go.Pos, "type %s is bound to %s, %s", b.rec.Name, b.rec.Go, fmt.Sprintf(format, args...))
}

// where is an object's declaration as file:line:col, the file relative to
// its module's directory.
func (b binding) where(obj types.Object) string {
	p := b.pkg.Fset.Position(obj.Pos())
	if root := moduleRoot(b.pkg); root != "" {
		if rel, err := filepath.Rel(root, p.Filename); err == nil && !strings.HasPrefix(rel, "..") {
			p.Filename = filepath.ToSlash(rel)
		}
	}
	return fmt.Sprintf("%s:%d:%d", p.Filename, p.Line, p.Column)
}

func moduleRoot(pkg *packages.Package) string {
	switch {
	case pkg.Module == nil:
		return ""
	case pkg.Module.Dir == "" && pkg.Module.Replace != nil:
		return pkg.Module.Replace.Dir
	}
	return pkg.Module.Dir
}

// checkBinding checks one bound type: its package loaded, declares the
// type, and the type has the contract's shape.
func checkBinding(rec *recordModel, pkg *packages.Package, cfg config, d *diags) {
	b := binding{rec: rec, pkg: pkg, cfg: cfg, d: d}
	if pkg == nil || len(pkg.Errors) > 0 || pkg.Types == nil {
		b.errorf("but package %s does not load: %s", rec.Go.Path, loadError(pkg))
		return
	}
	rec.Go.Package = pkg.Name
	obj, ok := pkg.Types.Scope().Lookup(rec.Go.Name).(*types.TypeName)
	if !ok {
		b.errorf("but package %s declares no type %s", rec.Go.Path, rec.Go.Name)
		return
	}
	switch rec.Shape {
	case enumShape:
		b.enum(obj)
	case fixedShape:
		b.fixed(obj)
	default:
		b.record(obj)
	}
}

func loadError(pkg *packages.Package) string {
	if pkg == nil || len(pkg.Errors) == 0 {
		return "go/packages returned no such package"
	}
	return strings.Join(strings.Fields(pkg.Errors[0].Msg), " ") // go's advice comes on lines of its own
}

// enum: an enum travels as its symbol, so its Go type is a string type.
func (b binding) enum(obj *types.TypeName) {
	if u, ok := obj.Type().Underlying().(*types.Basic); !ok || u.Info()&types.IsString == 0 {
		b.errorf("which (%s) is %s: an enum binds to a string type", b.where(obj), underlying(obj))
	}
}

// fixed: an array of the fixed size's bytes, which JSON, YAML and TOML
// carry as base64 text through its text methods, as a generated one does.
func (b binding) fixed(obj *types.TypeName) {
	a, ok := obj.Type().Underlying().(*types.Array)
	if !ok || a.Len() != int64(b.rec.Size) || !isByte(a.Elem()) {
		b.errorf("which (%s) is %s: fixed %d binds to an array of %d bytes, [%d]byte", b.where(obj), underlying(obj), b.rec.Size, b.rec.Size, b.rec.Size)
		return
	}
	for _, name := range []string{"MarshalText", "UnmarshalText"} {
		if m, _, _ := types.LookupFieldOrMethod(types.NewPointer(obj.Type()), true, obj.Pkg(), name); m == nil {
			b.errorf("which (%s) has no %s method: JSON, YAML and TOML carry a fixed type as base64 text, through MarshalText and UnmarshalText", b.where(obj), name)
		}
	}
}

func underlying(obj *types.TypeName) string {
	return types.TypeString(obj.Type().Underlying(), nil)
}

func isByte(t types.Type) bool {
	u, ok := types.Unalias(t).(*types.Basic)
	return ok && u.Kind() == types.Uint8
}

// record: a struct with, for every contract field, an exported field of the
// matching Go type whose json and avro tags are the wire name, and no
// exported field the contract does not declare unless it is tagged "-".
func (b binding) record(obj *types.TypeName) {
	st, ok := obj.Type().Underlying().(*types.Struct)
	if !ok {
		b.errorf("which (%s) is %s: a record binds to a struct type", b.where(obj), underlying(obj))
		return
	}
	used := map[*types.Var]bool{}
	for _, f := range b.rec.Fields {
		v, tag := goField(st, f)
		if v == nil {
			b.errorf("which (%s) has no field for contract field %s: add one tagged `json:%q avro:%q`", b.where(obj), f.Name, f.Name, f.Name)
			continue
		}
		used[v] = true
		b.field(f, v, tag)
	}
	b.extraFields(st, used)
}

// goField finds the Go field of contract field f: the one whose json tag is
// its wire name, or else the one of its Go name.
func goField(st *types.Struct, f *field) (*types.Var, reflect.StructTag) {
	for i := range st.NumFields() {
		if tag := reflect.StructTag(st.Tag(i)); tagName(tag, "json") == f.Name {
			return st.Field(i), tag
		}
	}
	for i := range st.NumFields() {
		if st.Field(i).Name() == f.GoName {
			return st.Field(i), reflect.StructTag(st.Tag(i))
		}
	}
	return nil, ""
}

// tagName is the name a struct tag gives the field under key ("" when none).
func tagName(tag reflect.StructTag, key string) string {
	name, _, _ := strings.Cut(tag.Get(key), ",")
	return name
}

// field checks one Go field against contract field f: exported, tagged
// with the wire name for every codec, of the contract's Go type.
func (b binding) field(f *field, v *types.Var, tag reflect.StructTag) {
	if !v.Exported() {
		b.errorf("whose field %s (%s) is not exported, so no codec reads or writes it; the contract's wire name is %q", v.Name(), b.where(v), f.Name)
		return
	}
	for _, key := range []string{"json", "avro"} {
		if got := tagName(tag, key); got == "" {
			b.errorf("whose field %s (%s) has no %s tag; the contract's wire name is %q", v.Name(), b.where(v), key, f.Name)
		} else if got != f.Name {
			b.errorf("whose field %s (%s) has %s tag %q; the contract's wire name is %q", v.Name(), b.where(v), key, got, f.Name)
		}
	}
	for _, key := range []string{"yaml", "toml"} {
		if got := tagName(tag, key); got != "" && got != f.Name {
			b.errorf("whose field %s (%s) has %s tag %q; the contract's wire name is %q", v.Name(), b.where(v), key, got, f.Name)
		}
	}
	if f.Type != nil && !matchesGo(f.Type, v.Type(), b.cfg.importPath) {
		b.errorf("whose field %s (%s) is %s; contract field %s (%s) is %s in Go", v.Name(), b.where(v),
			types.TypeString(v.Type(), nil), f.Name, contractType(f.Type), goTypeText(f.Type, b.cfg.importPath))
	}
}

// extraFields refuses exported fields no contract field claimed: untagged,
// encoding/json writes them under their Go names (and nothing in another
// language reads them); tagged, they put a field on the wire the contract
// does not declare. A field tagged json:"-" stays off the wire.
func (b binding) extraFields(st *types.Struct, used map[*types.Var]bool) {
	for i := range st.NumFields() {
		v, tag := st.Field(i), reflect.StructTag(st.Tag(i))
		switch name := tagName(tag, "json"); {
		case used[v] || !v.Exported() || name == "-":
		case name == "":
			b.errorf("whose field %s (%s) has no json tag, so encoding/json writes it as %q: untagged fields are refused; tag it with a contract field's wire name, or json:\"-\" avro:\"-\"", v.Name(), b.where(v), v.Name())
		default:
			b.errorf("whose field %s (%s) has json tag %q, which names no field of the contract: declare it, or tag the field json:\"-\" avro:\"-\"", v.Name(), b.where(v), name)
		}
	}
}
