package generator

import (
	"path/filepath"
	"strings"
)

// reference is a file a contract names, with the position of the name.
type reference struct {
	path string // joined to the contract's directory
	at   Pos
}

// references returns the files a YAML contract names in imports: and in
// schema: keys, as paths joined to the contract's directory. A file that does
// not parse names nothing here; Generate reports its problems.
func references(name string, data []byte) []reference {
	if strings.HasSuffix(name, ".avsc") {
		return nil
	}
	f := parseContract(Source{Path: name, Data: data}, &diags{})
	if f == nil {
		return nil
	}
	var out []reference
	for _, rel := range referenced(f) {
		if rel.V != "" {
			out = append(out, reference{path: filepath.Join(filepath.Dir(name), filepath.FromSlash(rel.V)), at: rel.P})
		}
	}
	return out
}

// referenced lists the paths f names in imports: and schema: keys.
func referenced(f *syntaxFile) []sStr {
	var rels []sStr
	for _, imp := range f.Imports {
		rels = append(rels, imp.Path)
	}
	for _, m := range f.Messages {
		rels = append(rels, m.Schema)
	}
	for _, r := range f.RPCs {
		for _, p := range []*syntaxPayload{r.Request, r.Response} {
			if p != nil {
				rels = append(rels, p.Schema)
			}
		}
	}
	return rels
}
