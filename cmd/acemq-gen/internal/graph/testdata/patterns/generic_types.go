package main

import (
	"context"
	"fmt"

	"example.com/patterns/events"
	"github.com/acemq/acemq-gen/runtime/acemq"
)

// box is a generic holder.
type box[X any] struct{ v X }

func (b box[X]) get() X { return b.v }

func (b box[X]) show() { fmt.Println(b.v) }

func genericBoxField(_ context.Context, m acemq.Message[events.GenericBoxField]) acemq.Ack {
	b := box[events.GenericBoxField]{v: m.Payload}
	keep(b.v.B + b.get().B)
	return acemq.Accept()
}

func genericMethodLeak(_ context.Context, m acemq.Message[events.GenericMethodLeak]) acemq.Ack {
	box[events.GenericMethodLeak]{v: m.Payload}.show()
	return acemq.Accept()
}
