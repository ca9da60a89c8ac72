package generator

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"
)

// headerOptions writes one typed EnvelopeOption per header name.
func (e *emitter) headerOptions() {
	for _, h := range optionHeaders(e.dom) {
		e.headerOption(h)
	}
}

func (e *emitter) headerOption(h *header) {
	name := headerOptionName(h)
	e.comment(fmt.Sprintf("%s sets the application header %s on a message published or sent.", name, h.Name), h.Doc, "")
	e.f.Func().Id(name).Params(jen.Id("v").Add(headerGoType(h.Type))).Add(qual("EnvelopeOption")).Block(
		jen.Return(qual("Header").Call(jen.Lit(h.Name), jen.Id("v"))))
}

func headerGoType(t string) jen.Code {
	if t == "string" {
		return jen.String()
	}
	return primitiveType(t)
}

// publisher writes Publisher, NewPublisher and the publish/send methods.
func (e *emitter) publisher() {
	what := "publishes the events and sends the commands"
	if len(e.dom.Streams) > 0 {
		what = "publishes the events, sends the commands and appends to the streams"
	}
	e.commentf("Publisher %s of the %s domain. Create one with NewPublisher; it is safe for concurrent use.", what, e.dom.Name)
	e.f.Type().Id("Publisher").StructFunc(func(g *jen.Group) {
		for _, m := range payloads(e.dom) {
			g.Id(pubField(m)).Op("*").Add(qual("Publisher")).Types(jen.Id(m.Name))
		}
	})
	e.commentf("NewPublisher returns a Publisher on conn. Each message is encoded with the contract's codec and checked for the contract's header rules.")
	e.f.Func().Id("NewPublisher").Params(jen.Id("conn").Op("*").Add(qual("Conn"))).Op("*").Id("Publisher").Block(
		jen.Return(jen.Op("&").Id("Publisher").ValuesFunc(e.publisherValues)))
	for _, m := range e.dom.Messages {
		e.publishMethods(m)
	}
	for _, m := range e.dom.Streams {
		e.appendMethods(m)
	}
}

func (e *emitter) publisherValues(g *jen.Group) {
	for _, m := range payloads(e.dom) {
		g.Line().Id(pubField(m)).Op(":").Id(specVar(m.Name)).Dot("Publisher").Call(jen.Id("conn"))
	}
	if len(payloads(e.dom)) > 0 {
		g.Line()
	}
}

func (e *emitter) publishMethods(m *message) {
	what := fmt.Sprintf("publishes m to Exchange with routing key %q", m.RoutingKey)
	if m.Kind == commandKind {
		what = fmt.Sprintf("sends m to the owner of queue %q (routing key %q)", m.Queue, m.RoutingKey)
	}
	field := jen.Id("p").Dot(pubField(m))
	name := publishName(m)
	e.comment(fmt.Sprintf("%s %s and waits for the broker's confirm.%s%s", name, what, mandatoryNote(m), headerNote(m)), "", m.Deprecated)
	e.f.Func().Params(jen.Id("p").Op("*").Id("Publisher")).Id(name).Params(
		jen.Id("ctx").Qual(contextPath, "Context"), jen.Id("m").Id(m.Name), jen.Id("opts").Op("...").Add(qual("EnvelopeOption")),
	).Error().Block(jen.Return(field.Clone().Dot("Send").Call(jen.Id("ctx"), jen.Id("m"), jen.Id("opts").Op("..."))))
	e.comment(fmt.Sprintf("%sBatch %s each of ms, in order, and returns what the broker said of each.", name, verbOf(m)), "", m.Deprecated)
	e.f.Func().Params(jen.Id("p").Op("*").Id("Publisher")).Id(publishBatchName(m)).Params(
		jen.Id("ctx").Qual(contextPath, "Context"), jen.Id("ms").Index().Id(m.Name), jen.Id("opts").Op("...").Add(qual("EnvelopeOption")),
	).Parens(jen.List(jen.Index().Add(qual("PublishResult")), jen.Error())).Block(
		jen.Return(field.Clone().Dot("SendAll").Call(jen.Id("ctx"), jen.Id("ms"), jen.Id("opts").Op("..."))))
	e.publishAsync(m)
	e.publishScheduled(m)
}

// publishAsync writes the method that publishes or sends without waiting for
// the confirm, delegating to acemq.Publisher.SendAsync.
func (e *emitter) publishAsync(m *message) {
	name := publishAsyncName(m)
	e.comment(fmt.Sprintf("%s %s m as %s does but returns once the message is written, without waiting for the broker's confirm: "+
		"the Pending's Wait returns the outcome, and a message that cannot be written is %s's error with a nil Pending "+
		"(acemq.Publisher.SendAsync).", name, verbOf(m), publishName(m), publishName(m)), "", m.Deprecated)
	e.f.Func().Params(jen.Id("p").Op("*").Id("Publisher")).Id(name).Params(
		jen.Id("ctx").Qual(contextPath, "Context"), jen.Id("m").Id(m.Name), jen.Id("opts").Op("...").Add(qual("EnvelopeOption")),
	).Parens(jen.List(jen.Op("*").Add(qual("Pending")), jen.Error())).Block(
		jen.Return(jen.Id("p").Dot(pubField(m)).Dot("SendAsync").Call(jen.Id("ctx"), jen.Id("m"), jen.Id("opts").Op("..."))))
}

// mandatoryNote says, for the doc comment, what a mandatory message that
// reaches no queue does.
func mandatoryNote(m *message) string {
	if !m.Mandatory {
		return ""
	}
	return " One that reaches no queue fails with an error matching acemq.ErrUnroutable."
}

func verbOf(m *message) string {
	switch m.Kind {
	case commandKind:
		return "sends"
	case streamKind:
		return "appends"
	}
	return "publishes"
}

// headerNote names the headers a message must carry, for the doc comment.
func headerNote(m *message) string {
	var names []string
	for _, h := range m.Headers {
		if h.Required {
			names = append(names, strconv.Quote(h.Name))
		}
	}
	switch len(names) {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf(" The header %s is required.", names[0])
	}
	return fmt.Sprintf(" The headers %s are required.", strings.Join(names, ", "))
}
