// Package templates holds the non-Go text acemq-gen writes, embedded: the
// scaffold of `acemq-gen init`.
//
//	acemq-gen init DOMAIN ──▶ Init (text/template) ──▶ contracts/DOMAIN.acemq.yaml + gen.go
//
// Go code is never written from templates; the generator emits it with
// jennifer.
package templates

import (
	"bytes"
	"embed"
	"fmt"
	"slices"
	"strings"
	"text/template"
)

//go:embed init
var initFS embed.FS

// Scaffold is what Init fills the templates with.
type Scaffold struct {
	Domain  string // the contract's domain, e.g. orders
	Package string // the package clause of gen.go
}

// File is one scaffolded file: a name relative to the target directory and
// its content.
type File struct {
	Name string
	Data []byte
}

// Init renders the scaffold: contracts/<domain>.acemq.yaml, a contract to
// edit, and gen.go, holding the go:generate line that runs acemq-gen through
// the module's tool directive (go tool acemq-gen generate -o . ./contracts).
// Names are slash-separated. Safe for concurrent use.
func Init(s Scaffold) ([]File, error) {
	var out []File
	for tmpl, name := range map[string]string{"contract.acemq.yaml": "contracts/" + s.Domain + ".acemq.yaml", "gen.go": "gen.go"} {
		data, err := render("init/"+tmpl+".tmpl", s)
		if err != nil {
			return nil, err
		}
		out = append(out, File{Name: name, Data: data})
	}
	slices.SortFunc(out, func(a, b File) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

func render(name string, s Scaffold) ([]byte, error) {
	t, err := template.ParseFS(initFS, name)
	if err != nil {
		return nil, fmt.Errorf("acemq-gen: template %s: %w", name, err)
	}
	var b bytes.Buffer
	if err := t.Execute(&b, s); err != nil {
		return nil, fmt.Errorf("acemq-gen: template %s: %w", name, err)
	}
	return b.Bytes(), nil
}
