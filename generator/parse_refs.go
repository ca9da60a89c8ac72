package generator

import (
	"path/filepath"
	"strings"
)

// references returns the files a YAML contract names in imports: and in
// schema: keys, as paths joined to the contract's directory. A file that does
// not parse names nothing here; Generate reports its problems.
func references(name string, data []byte) []string {
	if strings.HasSuffix(name, ".avsc") {
		return nil
	}
	f := parseContract(Source{Path: name, Data: data}, &diags{})
	if f == nil {
		return nil
	}
	var out []string
	for _, rel := range referenced(f) {
		if rel != "" {
			out = append(out, filepath.Join(filepath.Dir(name), filepath.FromSlash(rel)))
		}
	}
	return out
}

// referenced lists the paths f names in imports: and schema: keys.
func referenced(f *syntaxFile) []string {
	var rels []string
	for _, imp := range f.Imports {
		rels = append(rels, imp.Path.V)
	}
	for _, m := range f.Messages {
		rels = append(rels, m.Schema.V)
	}
	for _, r := range f.RPCs {
		for _, p := range []*syntaxPayload{r.Request, r.Response} {
			if p != nil {
				rels = append(rels, p.Schema.V)
			}
		}
	}
	return rels
}
