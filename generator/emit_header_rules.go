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

// headerRules writes, per message whose contract requires a header or
// declares one's type, the rules its publisher, consumer and Rules enforce.
func (e *emitter) headerRules() {
	for _, m := range e.dom.Messages {
		if len(ruledHeaders(m)) == 0 {
			continue
		}
		for _, l := range strings.Split(wrapWords(fmt.Sprintf("%s are the contract's header rules for %s: %s.", headerRulesVar(m), m.Name, ruleSummary(m))), "\n") {
			e.f.Comment(l)
		}
		e.f.Var().Id(headerRulesVar(m)).Op("=").Index().Add(qual("HeaderRule")).ValuesFunc(func(g *jen.Group) {
			for _, h := range ruledHeaders(m) {
				g.Line().Add(headerRuleValue(h))
			}
			g.Line()
		})
	}
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

// headerRulesArgs spreads m's header rules into a call: name... .
func headerRulesArgs(m *Message) jen.Code { return jen.Id(headerRulesVar(m)).Op("...") }

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
