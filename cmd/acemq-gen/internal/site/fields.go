package site

import (
	"bytes"
	"encoding/json"
	"html/template"
	"strings"

	"github.com/acemq/acemq-gen/generator"
)

// fields is the table rows of fields, their named types linked from a page
// root away from the site's root.
func (s *site) fields(fields []generator.Field, root string) []fieldView {
	var out []fieldView
	for _, f := range fields {
		fv := fieldView{Field: f, Optional: f.Type.Optional(), Root: root,
			TypeHTML: template.HTML(s.typeHTML(f.Type, root))}
		if f.HasDefault {
			b, _ := json.Marshal(f.Default)
			fv.Default = string(b)
		}
		out = append(out, fv)
	}
	return out
}

// typeHTML spells t as the contract does, each named type a link to its
// page; every piece of text is escaped.
func (s *site) typeHTML(t generator.FieldType, root string) string {
	esc := template.HTMLEscapeString
	inner := func() string {
		if t.Elem == nil {
			return ""
		}
		return s.typeHTML(*t.Elem, root)
	}
	switch t.Kind {
	case "named":
		if tv := s.types[t.Domain+"."+t.Name]; tv != nil {
			return `<a href="` + esc(root+tv.Path) + `">` + esc(t.Name) + `</a>`
		}
		return esc(t.Name)
	case "optional":
		return inner() + "?"
	case "array":
		return "[" + inner() + "]"
	case "map":
		return "{map: " + inner() + "}"
	case "union":
		var bs []string
		for _, b := range t.Branches {
			bs = append(bs, s.typeHTML(b, root))
		}
		return "{union: [" + strings.Join(bs, ", ") + "]}"
	}
	return esc(t.Text)
}

// indentJSON is a JSON document indented by two spaces; "" stays "".
func indentJSON(doc string) string {
	var b bytes.Buffer
	if json.Indent(&b, []byte(doc), "", "  ") != nil {
		return doc
	}
	return b.String()
}

// slug is name made safe as a file name: letters, digits, '.', '_' and '-'
// kept, anything else '-'.
func slug(name string) string {
	b := []byte(name)
	for i, c := range b {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-'
		if !ok {
			b[i] = '-'
		}
	}
	if s := string(b); s != "" && s[0] != '.' {
		return s
	}
	return "_" + string(b)
}
