package generator

import (
	"fmt"

	"github.com/dave/jennifer/jen"
)

// handlers writes the domain's handler sets: EventHandlers (what a
// subscribing service implements, started with Subscribe) and Handlers (what
// the owning service implements: commands and RPC requests, started with
// Serve), each with an Unimplemented type to embed so that a message added to
// the contract never breaks a service that does not handle it yet.
func (e *emitter) handlers() {
	events, owned := e.handled()
	if len(events) > 0 {
		e.handlerSet(eventHandlersSet, "the handler set of a service that subscribes to the events of the\n"+e.dom.Name+" domain", events, true)
	}
	if len(owned) > 0 {
		e.handlerSet(handlersSet, "the handler set of the service that owns the "+e.dom.Name+" domain:\nit handles the domain's commands and answers its RPCs", owned, false)
	}
	if len(events)+len(owned) > 0 {
		e.server()
	}
}

// handled is one method of a handler set.
type handled struct {
	kind string // event, command or rpc
	name string // message or RPC name
	req  string // the Go type handled
	resp string // RPC only
}

func (h handled) method() string { return handleName(h.name) }

func (e *emitter) handled() (events, owned []handled) {
	for _, m := range e.dom.Messages {
		h := handled{kind: m.Kind.String(), name: m.Name, req: m.Name}
		if m.Kind == eventKind {
			events = append(events, h)
		} else {
			owned = append(owned, h)
		}
	}
	for _, r := range e.dom.RPCs {
		owned = append(owned, handled{kind: "rpc", name: r.Name, req: r.Request.Name, resp: r.Response.Name})
	}
	return events, owned
}

// signature is a handler method's parameters and results.
func (h handled) signature(s *jen.Statement) *jen.Statement {
	s = s.Params(jen.Qual(contextPath, "Context"), qual("Message").Types(jen.Id(h.req)))
	if h.kind == "rpc" {
		return s.Parens(jen.List(jen.Id(h.resp), jen.Error()))
	}
	return s.Add(qual("Ack"))
}

func (e *emitter) handlerSet(set, what string, hs []handled, events bool) {
	unimpl, guard := unimplementedName(set), guardName(set)
	e.comment(fmt.Sprintf("%s is %s, one method per message.\nEmbed %s in implementations, so that regenerating never\nbreaks the build (see the package doc).", set, what, unimpl), "", "")
	e.f.Type().Id(set).InterfaceFunc(func(g *jen.Group) {
		for _, h := range hs {
			groupCommentf(g, "%s handles %s %s.", h.method(), h.kind, h.name)
			g.Add(h.signature(jen.Id(h.method())))
		}
		g.Id(guard).Params()
	})
	e.comment(fmt.Sprintf("%s is the default of every method of %s: a message\nis rejected (dead-lettered) and an RPC fails, naming what is not implemented.", unimpl, set), "", "")
	e.f.Type().Id(unimpl).Struct()
	for _, h := range hs {
		e.unimplementedMethod(unimpl, h)
	}
	e.commentf("%s makes embedding %s the only way to implement %s.", guard, unimpl, set)
	e.f.Func().Params(jen.Id(unimpl)).Id(guard).Params().Block()
	e.startSet(set, hs, events)
}

func (e *emitter) unimplementedMethod(unimpl string, h handled) {
	err := impl("NotImplemented").Call(jen.Lit(h.kind), jen.Lit(h.name))
	body := jen.Return(qual("Reject").Call(err))
	if h.kind == "rpc" {
		body = jen.Return(jen.Id(h.resp).Values(), err)
	}
	if h.kind == "rpc" {
		e.comment(h.method()+" fails the call with an error matching acemq.ErrNotImplemented.", "", "")
	} else {
		e.comment(h.method()+" rejects the message with an error matching acemq.ErrNotImplemented.", "", "")
	}
	e.f.Add(h.signature(jen.Func().Params(jen.Id(unimpl)).Id(h.method()))).Block(body)
}

// startSet writes Subscribe (events) or Serve (the owner's messages).
func (e *emitter) startSet(set string, hs []handled, events bool) {
	name, params := "Serve", []jen.Code{jen.Id("ctx").Qual(contextPath, "Context"), jen.Id("conn").Op("*").Add(qual("Conn"))}
	if events {
		name = "Subscribe"
		params = append(params, jen.Id("service").String())
		e.comment("Subscribe consumes every event of the domain on the queues of service "+
			"(<service>.<routing key>), delivering each to its method of h. It stops "+
			"the consumers it started when one fails to start.", "", "")
	} else {
		e.comment("Serve consumes every command and serves every RPC of the domain, delivering "+
			"each to its method of h. It stops what it started when one fails to start.", "", "")
	}
	params = append(params, jen.Id("h").Id(set), jen.Id("opts").Op("...").Add(qual("ConsumeOption")))
	starts := []jen.Code{jen.Id("ctx")}
	for _, h := range hs {
		args := []jen.Code{jen.Id("conn")}
		if events {
			args = append(args, jen.Id("service"))
		}
		args = append(args, jen.Id("h").Dot(h.method()), jen.Id("opts").Op("..."))
		starts = append(starts, jen.Id(specVar(h.name)).Dot(h.starter()).Call(args...))
	}
	e.f.Func().Id(name).Params(params...).Parens(jen.List(jen.Op("*").Id("Server"), jen.Error())).Block(
		jen.Return(impl("StartServer").Call(starts...)))
}

// starter is the specification method that starts h's consumer or responder.
func (h handled) starter() string {
	switch h.kind {
	case "event":
		return "Subscriber"
	case "rpc":
		return "Responder"
	}
	return "Consumer"
}

// server writes Server, the runtime's type Subscribe and Serve return.
func (e *emitter) server() {
	e.comment("Server is what Subscribe or Serve started: close it to stop every consumer. "+
		"Close is safe to call once from any goroutine.", "", "")
	e.f.Type().Id("Server").Op("=").Add(qual("Server"))
}

// interceptors writes Intercept<Message> per event and command, and Rules.
func (e *emitter) interceptors() {
	for _, m := range e.dom.Messages {
		fn := jen.Id("fn").Func().Params(jen.Qual(contextPath, "Context"), jen.Op("*").Add(qual("PublishContext")), jen.Op("*").Id(m.Name)).Error()
		e.comment(fmt.Sprintf("Intercept%s returns a ConnOption adding a publish interceptor that runs\nfor %s messages only: what fn leaves in *m is what is published, and an\nerror it returns stops the publish. A nil fn is refused at Connect.", m.Name, m.Name), "", "")
		e.f.Func().Id(interceptName(m)).Params(fn).Add(qual("ConnOption")).Block(
			jen.Return(impl("InterceptPublish").Call(jen.Id("fn"))))
	}
	e.rules()
}

func (e *emitter) rules() {
	e.comment("Rules returns the contract's rules as one ConnOption: every required header, "+
		"and the declared type of every header, is enforced on publish (for any "+
		"publisher of the message's type) and on consume (a delivery of the message's "+
		"type lacking it, or carrying a value of another type, is dead-lettered).", "", "")
	var rules []jen.Code
	for _, m := range e.dom.Messages {
		if len(ruledHeaders(m)) > 0 {
			rules = append(rules, jen.Id(specVar(m.Name)).Dot("Rules").Call())
		}
	}
	e.f.Func().Id("Rules").Params().Add(qual("ConnOption")).Block(jen.Return(impl("ConnOptions").Call(rules...)))
}
