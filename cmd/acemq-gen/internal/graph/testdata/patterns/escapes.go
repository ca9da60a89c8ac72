package main

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"

	"example.com/patterns/events"
	"github.com/acemq/acemq-gen/runtime/acemq"
)

func show[X any](x X) { fmt.Println(x) }

func genericLeak(_ context.Context, m acemq.Message[events.GenericLeak]) acemq.Ack {
	show(m.Payload)
	return acemq.Accept()
}

func assignAny(_ context.Context, m acemq.Message[events.AssignAny]) acemq.Ack {
	var v any = m.Payload
	sink = append(sink, v)
	return acemq.Accept()
}

func printf(_ context.Context, m acemq.Message[events.Printf]) acemq.Ack {
	fmt.Printf("%+v\n", m.Payload)
	return acemq.Accept()
}

func reflected(_ context.Context, m acemq.Message[events.Reflect]) acemq.Ack {
	keep(reflect.ValueOf(&m.Payload).Elem().Field(1).Int())
	return acemq.Accept()
}

func jsonMarshal(_ context.Context, m acemq.Message[events.JSONMarshal]) acemq.Ack {
	if _, err := json.Marshal(&m.Payload); err != nil {
		return acemq.Reject(err)
	}
	return acemq.Accept()
}

func boxed(p events.ReturnAny) any { return p }

func returnAny(_ context.Context, m acemq.Message[events.ReturnAny]) acemq.Ack {
	sink = append(sink, boxed(m.Payload))
	return acemq.Accept()
}

func typeSwitch(_ context.Context, m acemq.Message[events.TypeSwitch]) acemq.Ack {
	var v any = m.Payload
	switch x := v.(type) {
	case events.TypeSwitch:
		keep(x.B)
	}
	return acemq.Accept()
}

func compareWhole(_ context.Context, m acemq.Message[events.CompareWhole]) acemq.Ack {
	if m.Payload == (events.CompareWhole{}) {
		return acemq.Reject(fmt.Errorf("empty"))
	}
	return acemq.Accept()
}

type getter interface{ b() int64 }

type iwrap struct{ p events.InterfaceValue }

func (w iwrap) b() int64 { return w.p.B }

func interfaceValue(_ context.Context, m acemq.Message[events.InterfaceValue]) acemq.Ack {
	var g getter = iwrap{m.Payload}
	keep(g.b())
	return acemq.Accept()
}

type mine events.ConvertNamed

func convertNamed(_ context.Context, m acemq.Message[events.ConvertNamed]) acemq.Ack {
	keep(mine(m.Payload).B)
	return acemq.Accept()
}

func generatedMethod(_ context.Context, m acemq.Message[events.GeneratedMethod]) acemq.Ack {
	b, err := m.Payload.AppendJSON(nil)
	if err != nil {
		return acemq.Reject(err)
	}
	sink = append(sink, b)
	return acemq.Accept()
}

func appendAny(_ context.Context, m acemq.Message[events.AppendAny]) acemq.Ack {
	sink = append(sink, m.Payload)
	return acemq.Accept()
}

func mapKey(_ context.Context, m acemq.Message[events.MapKey]) acemq.Ack {
	seen := map[events.MapKey]bool{}
	if seen[m.Payload] {
		return acemq.Accept()
	}
	seen[m.Payload] = true
	return acemq.Accept()
}
