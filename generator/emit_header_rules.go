package generator

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"
)

// headerRuleTypes names the runtime's constant for each header type.
var headerRuleTypes = map[string]string{
	"string": "StringHeader", "int": "IntHeader", "long": "LongHeader",
	"boolean": "BooleanHeader", "double": "DoubleHeader",
}

// ruledHeaders are the headers of m that are required or declare a type.
func ruledHeaders(m *Message) []*Header {
	var out []*Header
	for _, h := range m.Headers {
		if h.Required || h.Typed {
			out = append(out, h)
		}
	}
	return out
}

func headerRuleValue(h *Header) jen.Code {
	return jen.ValuesFunc(func(g *jen.Group) {
		g.Id("Name").Op(":").Lit(h.Name)
		if h.Typed {
			g.Id("Type").Op(":").Add(qual(headerRuleTypes[h.Type]))
		}
		if h.Required {
			g.Id("Required").Op(":").True()
		}
	})
}

// ruleSummary says what the rules hold, for their doc comment.
func ruleSummary(m *Message) string {
	var parts []string
	for _, h := range ruledHeaders(m) {
		switch {
		case h.Required && h.Typed:
			parts = append(parts, fmt.Sprintf("%s is required and %s", h.Name, article(h.Type)))
		case h.Required:
			parts = append(parts, h.Name+" is required")
		default:
			parts = append(parts, fmt.Sprintf("%s, when present, is %s", h.Name, article(h.Type)))
		}
	}
	return strings.Join(parts, "; ")
}

func article(typ string) string {
	if strings.ContainsAny(typ[:1], "aeio") {
		return "an " + typ
	}
	return "a " + typ
}
