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
	kind    string // event, command or rpc
	name    string // message or RPC name
	req     string // the Go type handled
	resp    string // RPC only
	consume string // the package function the set calls
}

func (h handled) method() string { return handleName(h.name) }

func (e *emitter) handled() (events, owned []handled) {
	for _, m := range e.dom.Messages {
		h := handled{kind: m.Kind.String(), name: m.Name, req: m.Name, consume: consumeName(m)}
		if m.Kind == Event {
			events = append(events, h)
		} else {
			owned = append(owned, h)
		}
	}
	for _, r := range e.dom.RPCs {
		owned = append(owned, handled{kind: "rpc", name: r.Name, req: r.Request.Name, resp: r.Response.Name, consume: serveName(r)})
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
	e.comment(fmt.Sprintf("%s is %s, one method per message.\nEmbed %s in implementations: a message added to the\ncontract is then handled by its default (the message is rejected, or the\nRPC fails) instead of breaking the build.", set, what, unimpl), "", "")
	e.f.Type().Id(set).InterfaceFunc(func(g *jen.Group) {
		for _, h := range hs {
			g.Commentf("%s handles %s %s.", h.method(), h.kind, h.name)
			g.Add(h.signature(jen.Id(h.method())))
		}
		g.Id(guard).Params()
	})
	e.comment(fmt.Sprintf("%s is the default of every method of %s: a message\nis rejected (dead-lettered) and an RPC fails, naming what is not implemented.", unimpl, set), "", "")
	e.f.Type().Id(unimpl).Struct()
	for _, h := range hs {
		e.unimplementedMethod(unimpl, h)
	}
	e.f.Commentf("%s makes embedding %s the only way to implement %s.", guard, unimpl, set)
	e.f.Func().Params(jen.Id(unimpl)).Id(guard).Params().Block()
	e.startSet(set, hs, events)
}

func (e *emitter) unimplementedMethod(unimpl string, h handled) {
	err := jen.Qual(errorsPath, "New").Call(jen.Lit(fmt.Sprintf("acemq: %s %s is not implemented", h.kind, h.name)))
	body := jen.Return(qual("Reject").Call(err))
	if h.kind == "rpc" {
		body = jen.Return(jen.Id(h.resp).Values(), err)
	}
	if h.kind == "rpc" {
		e.f.Commentf("%s fails the call: it is not implemented.", h.method())
	} else {
		e.f.Commentf("%s rejects the message: it is not implemented.", h.method())
	}
	e.f.Add(h.signature(jen.Func().Params(jen.Id(unimpl)).Id(h.method()))).Block(body)
}

// startSet writes Subscribe (events) or Serve (the owner's messages).
func (e *emitter) startSet(set string, hs []handled, events bool) {
	name, params := "Serve", []jen.Code{jen.Id("ctx").Qual(contextPath, "Context"), jen.Id("conn").Op("*").Add(qual("Conn"))}
	if events {
		name = "Subscribe"
		params = append(params, jen.Id("service").String())
		e.comment("Subscribe consumes every event of the domain on the queues of service\n(<service>.<routing key>), delivering each to its method of h. It stops\nthe consumers it started when one fails to start.", "", "")
	} else {
		e.comment("Serve consumes every command and serves every RPC of the domain, delivering\neach to its method of h. It stops what it started when one fails to start.", "", "")
	}
	params = append(params, jen.Id("h").Id(set), jen.Id("opts").Op("...").Add(qual("ConsumeOption")))
	e.f.Func().Id(name).Params(params...).Parens(jen.List(jen.Op("*").Id("Server"), jen.Error())).BlockFunc(func(g *jen.Group) {
		g.Id("s").Op(":=").Op("&").Id("Server").Values()
		for _, h := range hs {
			args := []jen.Code{jen.Id("ctx"), jen.Id("conn")}
			if events {
				args = append(args, jen.Id("service"))
			}
			args = append(args, jen.Id("h").Dot(h.method()), jen.Id("opts").Op("..."))
			g.If(jen.Err().Op(":=").Id("s").Dot("add").Call(jen.Id(h.consume).Call(args...)), jen.Err().Op("!=").Nil()).Block(
				jen.Return(jen.Nil(), jen.Qual(errorsPath, "Join").Call(jen.Err(), jen.Id("s").Dot("Close").Call())))
		}
		g.Return(jen.Id("s"), jen.Nil())
	})
}

// server writes the Server type Subscribe and Serve return.
func (e *emitter) server() {
	closer := jen.Qual("io", "Closer")
	e.f.Comment("Server is what Subscribe or Serve started: close it to stop every consumer.")
	e.f.Comment("Close is safe to call once from any goroutine.")
	e.f.Type().Id("Server").Struct(jen.Id("running").Index().Add(closer))
	e.f.Comment("add keeps c running when err is nil, and returns err.")
	e.f.Func().Params(jen.Id("s").Op("*").Id("Server")).Id("add").Params(jen.Id("c").Add(closer), jen.Err().Error()).Error().Block(
		jen.If(jen.Err().Op("==").Nil()).Block(jen.Id("s").Dot("running").Op("=").Append(jen.Id("s").Dot("running"), jen.Id("c"))),
		jen.Return(jen.Err()))
	e.f.Comment("Close stops every consumer and responder the Server started, and returns")
	e.f.Comment("their errors joined.")
	e.f.Func().Params(jen.Id("s").Op("*").Id("Server")).Id("Close").Params().Error().Block(
		jen.Var().Id("err").Error(),
		jen.For(jen.List(jen.Id("_"), jen.Id("c")).Op(":=").Range().Id("s").Dot("running")).Block(
			jen.Id("err").Op("=").Qual(errorsPath, "Join").Call(jen.Id("err"), jen.Id("c").Dot("Close").Call())),
		jen.Return(jen.Id("err")))
}

// interceptors writes Intercept<Message> per event and command, and Rules.
func (e *emitter) interceptors() {
	for _, m := range e.dom.Messages {
		fn := jen.Id("fn").Func().Params(jen.Qual(contextPath, "Context"), jen.Op("*").Add(qual("PublishContext")), jen.Op("*").Id(m.Name)).Error()
		e.comment(fmt.Sprintf("Intercept%s returns a ConnOption adding a publish interceptor that runs\nfor %s messages only: what fn leaves in *m is what is published, and an\nerror it returns stops the publish. A nil fn is refused at Connect.", m.Name, m.Name), "", "")
		e.f.Func().Id(interceptName(m)).Params(fn).Add(qual("ConnOption")).Block(
			jen.Return(qual("InterceptPublish").Call(jen.Id("fn"))))
	}
	e.rules()
}

func (e *emitter) rules() {
	e.f.Comment("Rules returns the contract's rules as one ConnOption: every required header,")
	e.f.Comment("and the declared type of every header, is enforced on publish (for any")
	e.f.Comment("publisher of the message's type) and on consume (a delivery of the message's")
	e.f.Comment("type lacking it, or carrying a value of another type, is dead-lettered).")
	e.f.Func().Id("Rules").Params().Add(qual("ConnOption")).Block(jen.Return(qual("ConnOptions").CallFunc(func(g *jen.Group) {
		for _, m := range e.dom.Messages {
			if len(ruledHeaders(m)) == 0 {
				continue
			}
			g.Line().Add(qual("HeaderRulesOf").Types(jen.Id(m.Name)).Call(jen.Id(routingKeyName(m)), headerRulesArgs(m)))
		}
	})))
}
