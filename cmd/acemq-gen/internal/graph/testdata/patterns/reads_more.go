package main

import (
	"context"

	"example.com/patterns/events"
	"github.com/acemq/acemq-gen/runtime/acemq"
)

type enriched struct {
	events.Embedded
	extra int
}

func embedded(_ context.Context, m acemq.Message[events.Embedded]) acemq.Ack {
	e := enriched{Embedded: m.Payload, extra: 1}
	keep(e.B + int64(e.extra))
	return acemq.Accept()
}

type enrichedPointer struct{ *events.EmbeddedPointer }

func embeddedPointer(_ context.Context, m acemq.Message[events.EmbeddedPointer]) acemq.Ack {
	keep(enrichedPointer{&m.Payload}.B)
	return acemq.Accept()
}

func identity[X any](x X) X { return x }

func genericIdentity(_ context.Context, m acemq.Message[events.GenericIdentity]) acemq.Ack {
	keep(identity(m.Payload).B)
	return acemq.Accept()
}

func apply[X any](x X, f func(X) int64) int64 { return f(x) }

func genericCallback(_ context.Context, m acemq.Message[events.GenericCallback]) acemq.Ack {
	keep(apply(m.Payload, func(p events.GenericCallback) int64 { return p.B }))
	return acemq.Accept()
}

type holder struct{ p events.HolderField }

func holderField(_ context.Context, m acemq.Message[events.HolderField]) acemq.Ack {
	h := holder{p: m.Payload}
	keep(h.p.B)
	return acemq.Accept()
}

func mapValue(_ context.Context, m acemq.Message[events.MapValue]) acemq.Ack {
	byID := map[string]events.MapValue{m.Payload.A: m.Payload}
	keep(byID[m.Payload.A].B)
	return acemq.Accept()
}

func channel(_ context.Context, m acemq.Message[events.Channel]) acemq.Ack {
	ch := make(chan events.Channel, 1)
	ch <- m.Payload
	keep((<-ch).B)
	return acemq.Accept()
}

func sliceElement(_ context.Context, m acemq.Message[events.SliceElement]) acemq.Ack {
	ps := []events.SliceElement{m.Payload}
	keep(ps[0].B)
	return acemq.Accept()
}

func funcVariable(_ context.Context, m acemq.Message[events.FuncVariable]) acemq.Ack {
	var get func(events.FuncVariable) int64 = func(p events.FuncVariable) int64 { return p.B }
	keep(get(m.Payload))
	return acemq.Accept()
}

func anonStruct(_ context.Context, m acemq.Message[events.AnonStruct]) acemq.Ack {
	s := struct{ p events.AnonStruct }{m.Payload}
	keep(s.p.B)
	return acemq.Accept()
}

func split(p events.MultiReturn) (int64, string) { return p.B, p.A }

func multiReturn(_ context.Context, m acemq.Message[events.MultiReturn]) acemq.Ack {
	b, _ := split(m.Payload)
	keep(b)
	return acemq.Accept()
}

type counter struct{ p *events.PointerReceiver }

func (c *counter) b() int64 { return c.p.B }

func pointerReceiver(_ context.Context, m acemq.Message[events.PointerReceiver]) acemq.Ack {
	c := &counter{p: &m.Payload}
	keep(c.b())
	return acemq.Accept()
}

func goroutineChannel(_ context.Context, m acemq.Message[events.GoroutineChannel]) acemq.Ack {
	ch := make(chan *events.GoroutineChannel)
	done := make(chan struct{})
	go func() {
		keep((<-ch).B)
		close(done)
	}()
	ch <- &m.Payload
	<-done
	return acemq.Accept()
}

func indirectHelper(_ context.Context, m acemq.Message[events.IndirectHelper]) acemq.Ack {
	keep(outer(&m))
	return acemq.Accept()
}

func outer(m *acemq.Message[events.IndirectHelper]) int64 { return inner(m.Payload) }

func inner(p events.IndirectHelper) int64 { return p.B }

// handlers is the Subscribe handler set: HandleSubscribed reads b.
type handlers struct {
	events.UnimplementedEventHandlers
}

func (handlers) HandleSubscribed(_ context.Context, m acemq.Message[events.Subscribed]) acemq.Ack {
	keep(m.Payload.B)
	return acemq.Accept()
}
