package site

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"io/fs"
	"path"

	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/sysgraph"
	"github.com/acemq/acemq-gen/generator"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed assets
var assetFS embed.FS

// pages are the site's templates, parsed once.
var pages = template.Must(template.New("site").Funcs(funcs).ParseFS(templateFS, "templates/*.html"))

// Input is what a catalog is built from.
type Input struct {
	// Entries and Domains are generator.CatalogContents' answer.
	Entries []generator.Entry
	Domains []generator.CatalogDomain
	// Usage is the usage graph, nil without --usage.
	Usage *sysgraph.Graph
	// History is each message's versions, nil without --history.
	History History
}

// File is one file of the site: a slash path relative to its root.
type File struct {
	Path string
	Data []byte
}

// Build renders the site of in: the same input gives the same files, in
// the same order.
func Build(in Input) ([]File, error) {
	s, err := newSite(in)
	if err != nil {
		return nil, err
	}
	var files []File
	for _, p := range s.pages() {
		var b bytes.Buffer
		if err := pages.ExecuteTemplate(&b, p.template, p); err != nil {
			return nil, fmt.Errorf("catalog: rendering %s: %w", p.Path, err)
		}
		files = append(files, File{Path: p.Path, Data: b.Bytes()})
	}
	files = append(files, File{Path: "assets/search-index.js", Data: s.searchIndex()}, marker)
	return append(files, assets()...), nil
}

// assets are the embedded style sheet and script, as they are.
func assets() []File {
	var out []File
	_ = fs.WalkDir(assetFS, "assets", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			data, _ := assetFS.ReadFile(p)
			out = append(out, File{Path: path.Clean(p), Data: data})
		}
		return err
	})
	return out
}
