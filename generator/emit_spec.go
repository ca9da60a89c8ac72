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
	if m.Version != 1 {
		fields = append(fields, jen.Id("Version").Op(":").Lit(m.Version))
	}
	if rules := ruledHeaders(m); len(rules) > 0 {
		fields = append(fields, jen.Id("Headers").Op(":").Index().Add(qual("HeaderRule")).ValuesFunc(func(g *jen.Group) {
			for _, h := range rules {
				g.Line().Add(headerRuleValue(h))
			}
			g.Line()
		}))
	}
	if m.Mandatory {
		fields = append(fields, jen.Id("Mandatory").Op(":").True())
	}
	fields = appendSetAside(appendQueueOptions(fields, m.DeliveryLimit), m.SetAside)
	e.f.Var().Id(specVar(m.Name)).Op("=").Op("&").Add(impl("MessageSpec")).Types(jen.Id(m.Name)).Add(lines(fields))
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
	if m.DeliveryLimit > 0 {
		parts = append(parts, deliveryLimitSummary(m.DeliveryLimit))
	}
	if m.SetAside != "" {
		parts = append(parts, setAsideSummary(m.SetAside))
	}
	return strings.Join(parts, "; ")
}

func (e *emitter) rpcSpec(r *rpc) {
	limit := ""
	if r.DeliveryLimit > 0 {
		limit = "; " + deliveryLimitSummary(r.DeliveryLimit)
	}
	if r.SetAside != "" {
		limit += "; " + setAsideSummary(r.SetAside)
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
	fields = appendSetAside(appendQueueOptions(fields, r.DeliveryLimit), r.SetAside)
	spec := impl("RPCSpec").Types(jen.Id(r.Request.Name), jen.Id(r.Response.Name))
	e.f.Var().Id(specVar(r.Name)).Op("=").Op("&").Add(spec).Add(lines(fields))
}

// appendQueueOptions adds the QueueOptions field of a specification when the
// contract sets a delivery limit.
func appendQueueOptions(fields []jen.Code, limit int) []jen.Code {
	if limit == 0 {
		return fields
	}
	return append(fields, jen.Id("QueueOptions").Op(":").Index().Add(qual("QueueOption")).Values(
		qual("DeliveryLimit").Call(jen.Lit(limit))))
}

// appendSetAside adds the SetAside field of a specification when the
// contract fixes the type of its set-aside queues.
func appendSetAside(fields []jen.Code, qt string) []jen.Code {
	switch qt {
	case "quorum":
		return append(fields, jen.Id("SetAside").Op(":").Add(qual("QueueQuorum")))
	case "classic":
		return append(fields, jen.Id("SetAside").Op(":").Add(qual("QueueClassic")))
	}
	return fields
}

// setAsideSummary says what a set-aside-queues key does, for a specification's doc.
func setAsideSummary(qt string) string {
	return fmt.Sprintf("its {queue}.dlq and {queue}.parked are %s queues", qt)
}

// deliveryLimitSummary says what a delivery limit does, for a specification's doc.
func deliveryLimitSummary(n int) string {
	return fmt.Sprintf("its queues dead-letter a message returned to them more than %d times (x-delivery-limit)", n)
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
