package generator

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"
)

// specs writes one specification value per message and RPC: the contract's
// data, which the exported functions hand to the runtime.
func (e *emitter) specs() {
	for _, m := range e.dom.Messages {
		e.messageSpec(m)
	}
	for _, r := range e.dom.RPCs {
		e.rpcSpec(r)
	}
}

func (e *emitter) messageSpec(m *message) {
	e.comment(fmt.Sprintf("%s is the contract of %s %s: %s.", specVar(m.Name), m.Kind, m.Name, messageSummary(m)), "", "")
	fields := []jen.Code{
		jen.Id("Exchange").Op(":").Id("Exchange"),
		jen.Id("RoutingKey").Op(":").Id(routingKeyName(m)),
	}
	if m.Kind == commandKind {
		fields = append(fields, jen.Id("Queue").Op(":").Id(queueName(m.Name)))
	}
	fields = append(fields,
		jen.Id("Codec").Op(":").Add(messageCodec(m).builder()),
		jen.Id("Retry").Op(":").Add(retryCode(m.Retry)))
	if v := specVersion(m); v != 0 {
		fields = append(fields, jen.Id("Version").Op(":").Lit(v))
	}
	fields = appendHeaderRules(fields, m)
	if m.Mandatory {
		fields = append(fields, jen.Id("Mandatory").Op(":").True())
	}
	fields = appendQueueSettings(fields, m.QueueSettings)
	e.f.Var().Id(specVar(m.Name)).Op("=").Op("&").Add(impl("MessageSpec")).Types(jen.Id(m.Name)).Add(lines(fields))
}

// appendHeaderRules adds the Headers field of m's specification: its
// required and typed headers, when it has any.
func appendHeaderRules(fields []jen.Code, m *message) []jen.Code {
	rules := ruledHeaders(m)
	if len(rules) == 0 {
		return fields
	}
	return append(fields, jen.Id("Headers").Op(":").Index().Add(qual("HeaderRule")).ValuesFunc(func(g *jen.Group) {
		for _, h := range rules {
			g.Line().Add(headerRuleValue(h))
		}
		g.Line()
	}))
}

// specVersion is the Version of m's specification: its schema version, 0
// for version 1, which publishes without one as no version does.
func specVersion(m *message) int {
	if m.Version == 1 {
		return 0
	}
	return m.Version
}

// messageSummary says what a message's specification holds, for its doc.
func messageSummary(m *message) string {
	parts := []string{fmt.Sprintf("%s codec", messageCodec(m).describe()), describeRetry(m.Retry)}
	if m.Version != 1 {
		parts = append(parts, fmt.Sprintf("schema version %d", m.Version))
	}
	if len(ruledHeaders(m)) > 0 {
		parts = append(parts, ruleSummary(m))
	}
	if m.Mandatory {
		parts = append(parts, "mandatory")
	}
	return strings.Join(append(parts, queueSummaries(m.QueueSettings)...), "; ")
}

func (e *emitter) rpcSpec(r *rpc) {
	limit := ""
	for _, s := range queueSummaries(r.QueueSettings) {
		limit += "; " + s
	}
	e.comment(fmt.Sprintf("%s is the contract of rpc %s: %s codec; calls wait at most %s%s.",
		specVar(r.Name), r.Name, rpcCodec(r).describe(), shortDuration(r.Timeout), limit), "", "")
	fields := []jen.Code{
		jen.Id("Queue").Op(":").Id(queueName(r.Name)),
		jen.Id("Codec").Op(":").Add(rpcCodec(r).builder()),
		jen.Id("Timeout").Op(":").Add(durationCode(r.Timeout)),
	}
	if len(r.Errors) > 0 {
		fields = append(fields, jen.Id("Errors").Op(":").Index().Op("*").Qual(patternsPath, "DeclaredError").ValuesFunc(func(g *jen.Group) {
			for _, x := range r.Errors {
				g.Id(errorName(x.Name))
			}
		}))
	}
	fields = appendQueueSettings(fields, r.QueueSettings)
	spec := impl("RPCSpec").Types(jen.Id(r.Request.Name), jen.Id(r.Response.Name))
	e.f.Var().Id(specVar(r.Name)).Op("=").Op("&").Add(spec).Add(lines(fields))
}

// appendQueueSettings adds the Queues field of a specification for what the
// contract says of its queues.
func appendQueueSettings(fields []jen.Code, q QueueSettings) []jen.Code {
	if c := queueKeysCode(q); c != nil {
		fields = append(fields, jen.Id("Queues").Op(":").Add(c))
	}
	return fields
}

// lines is a composite literal's values, one a line.
func lines(values []jen.Code) jen.Code {
	return jen.ValuesFunc(func(g *jen.Group) {
		for _, v := range values {
			g.Line().Add(v)
		}
		g.Line()
	})
}
