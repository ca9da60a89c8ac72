package compat

import (
	"strings"

	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/sysgraph"
	"github.com/acemq/acemq-gen/generator"
)

// Readers answers generator.CompatUsage from the usage graph g: the
// consumers of a domain's message that read a field, a field inside it or
// the field holding it, or every field (then at the escape's reason).
func Readers(g *sysgraph.Graph) func(domain, message, field string) []generator.FieldReader {
	return func(domain, message, field string) []generator.FieldReader {
		var out []generator.FieldReader
		for _, s := range g.Services {
			for _, u := range s.Consumes {
				if u.Domain == domain && u.Message == message {
					out = append(out, fieldReaders(s.Name, u, field)...)
				}
			}
		}
		return out
	}
}

// fieldReaders are the reads of field in u by service.
func fieldReaders(service string, u sysgraph.Use, field string) []generator.FieldReader {
	if u.AllFields {
		return []generator.FieldReader{{Service: service, Pos: u.Pos + " (every field: " + u.Why + ")"}}
	}
	var out []generator.FieldReader
	for _, f := range u.Fields {
		if related(f.Field, field) && len(f.Pos) > 0 {
			out = append(out, generator.FieldReader{Service: service, Pos: strings.Join(f.Pos, ", ")})
		}
	}
	return out
}

// related reports whether reading field a reads field b: the same, one
// inside the other.
func related(a, b string) bool {
	return a == b || strings.HasPrefix(a, b+".") || strings.HasPrefix(b, a+".")
}
