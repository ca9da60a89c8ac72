package site

import (
	"encoding/json"
	"html/template"
	"strings"
)

// page is one HTML file and the data its template renders.
type page struct {
	template, Path string
	Title          string
	// Root leads from the page back to the site's root ("", "../", ...).
	Root    string
	Site    *site
	Domain  *domainView
	Message *messageView
	Type    *typeView
	Service *serviceView
}

// pages lists every page of the site, in a fixed order.
func (s *site) pages() []page {
	out := []page{{template: "index.html", Path: "index.html", Title: "Contract catalog", Site: s}}
	for _, d := range s.Domains {
		out = append(out, page{template: "domain.html", Path: d.Path, Title: "Domain " + d.Name, Domain: d, Site: s})
		for _, m := range d.Messages {
			out = append(out, page{template: "message.html", Path: m.Path, Title: m.Name + " (" + m.Kind + ", " + m.Domain + ")", Message: m, Domain: d, Site: s})
		}
		for _, t := range d.Types {
			out = append(out, page{template: "type.html", Path: t.Path, Title: "Type " + t.Name + " (" + t.Domain + ")", Type: t, Domain: d, Site: s})
		}
	}
	for _, sv := range s.Services {
		out = append(out, page{template: "service.html", Path: sv.Path, Title: "Service " + sv.Name, Service: sv, Site: s})
	}
	for i := range out {
		out[i].Root = strings.Repeat("../", strings.Count(out[i].Path, "/"))
	}
	return out
}

// searchEntry is one message in the search index: its name, kind, domain,
// page, and the field and header names a search finds it by.
type searchEntry struct {
	Name    string   `json:"name"`
	Kind    string   `json:"kind"`
	Domain  string   `json:"domain"`
	URL     string   `json:"url"`
	Fields  []string `json:"fields"`
	Headers []string `json:"headers"`
}

// searchIndex is the script that hands the index page every message's
// search entry (a script, not a JSON file: pages opened from the file
// system cannot fetch).
func (s *site) searchIndex() []byte {
	entries := []searchEntry{}
	for _, d := range s.Domains {
		for _, m := range d.Messages {
			e := searchEntry{Name: m.Name, Kind: m.Kind, Domain: m.Domain, URL: m.Path, Fields: []string{}, Headers: []string{}}
			for _, f := range append(append([]fieldView{}, m.Fields...), m.ResponseFields...) {
				e.Fields = append(e.Fields, f.Name)
			}
			for _, h := range m.Headers {
				e.Headers = append(e.Headers, h.Name)
			}
			entries = append(entries, e)
		}
	}
	b, _ := json.Marshal(entries) // escapes <, > and & as \u003c...
	return []byte("window.ACEMQ_CATALOG = " + string(b) + ";\n")
}

// funcs are the templates' helpers.
var funcs = template.FuncMap{
	"join": strings.Join,
}
