package main

import (
	"context"
	"sync"

	"example.com/patterns/events"
	"github.com/acemq/acemq-gen/runtime/acemq"
)

func direct(_ context.Context, m acemq.Message[events.Direct]) acemq.Ack {
	keep(m.Payload.B)
	return acemq.Accept()
}

func pointerToPayload(_ context.Context, m acemq.Message[events.PointerToPayload]) acemq.Ack {
	p := &m.Payload
	keep(p.B)
	return acemq.Accept()
}

func pointerMessage(_ context.Context, m acemq.Message[events.PointerMessage]) acemq.Ack {
	return fromPointer(&m)
}

func fromPointer(m *acemq.Message[events.PointerMessage]) acemq.Ack {
	keep(m.Payload.B)
	return acemq.Accept()
}

func localCopy(_ context.Context, m acemq.Message[events.LocalCopy]) acemq.Ack {
	p := m.Payload
	v := p
	keep(v.B)
	return acemq.Accept()
}

func helper(_ context.Context, m acemq.Message[events.Helper]) acemq.Ack {
	keep(readHelper(m.Payload))
	return acemq.Accept()
}

func readHelper(p events.Helper) int64 { return p.B }

func helperPointer(_ context.Context, m acemq.Message[events.HelperPointer]) acemq.Ack {
	keep(readHelperPointer(&m.Payload))
	return acemq.Accept()
}

func readHelperPointer(p *events.HelperPointer) int64 { return p.B }

func closure(_ context.Context, m acemq.Message[events.Closure]) acemq.Ack {
	get := func() int64 { return m.Payload.B }
	keep(get())
	return acemq.Accept()
}

// wrap holds a payload; its methods read it.
type wrap struct{ p events.MethodValue }

func (w wrap) b() int64 { return w.p.B }

func methodValue(_ context.Context, m acemq.Message[events.MethodValue]) acemq.Ack {
	f := wrap{m.Payload}.b
	keep(f())
	return acemq.Accept()
}

type wrapExpr struct{ p events.MethodExpr }

func (w wrapExpr) b() int64 { return w.p.B }

func methodExpr(_ context.Context, m acemq.Message[events.MethodExpr]) acemq.Ack {
	keep(wrapExpr.b(wrapExpr{m.Payload}))
	return acemq.Accept()
}

func goroutine(_ context.Context, m acemq.Message[events.Goroutine]) acemq.Ack {
	var wg sync.WaitGroup
	wg.Add(1)
	go func(p events.Goroutine) {
		defer wg.Done()
		keep(p.B)
	}(m.Payload)
	wg.Wait()
	return acemq.Accept()
}

func deferred(_ context.Context, m acemq.Message[events.Defer]) acemq.Ack {
	defer keep(m.Payload.B)
	return acemq.Accept()
}

func rangePayloads(_ context.Context, m acemq.Message[events.RangePayloads]) acemq.Ack {
	for _, p := range []events.RangePayloads{m.Payload} {
		keep(p.B)
	}
	return acemq.Accept()
}

func rangeNested(_ context.Context, m acemq.Message[events.RangeNested]) acemq.Ack {
	for _, it := range m.Payload.Items {
		keep(it.Y)
	}
	return acemq.Accept()
}

func switchField(_ context.Context, m acemq.Message[events.SwitchField]) acemq.Ack {
	switch m.Payload.B {
	case 1:
		return acemq.Accept()
	}
	return acemq.Accept()
}

func comparison(_ context.Context, m acemq.Message[events.Comparison]) acemq.Ack {
	if m.Payload.B > 10 {
		keep(1)
	}
	return acemq.Accept()
}
