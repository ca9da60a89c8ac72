package rabbitmq

import (
	"errors"
	"fmt"

	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/acemq/acemq-gen/runtime/acemq/driver"
	"github.com/acemq/acemq-gen/runtime/internal/amqpvalue"
)

// sent are the value rules of the tables amqp091-go writes: a time and an
// int that fits 32 bits stay as they are (amqp091 writes an int as 32 bits,
// like the family), nested tables become amqp.Table, and amqp.Decimal passes.
var sent = amqpvalue.Rules{
	Entry: "header or argument",
	Wrap:  func(m map[string]any) any { return amqp.Table(m) },
	Keep:  func(v any) bool { _, ok := v.(amqp.Decimal); return ok },
}

// toTable converts headers or x-arguments to an AMQP table, refusing values
// AMQP cannot carry. A table already in the form amqp091-go writes (such as
// a publisher's, built from the envelope) is m itself, not a copy
// (amqpvalue.Rules.Converted).
func toTable(m map[string]any) (amqp.Table, error) {
	t, err := sent.Converted(m)
	return amqp.Table(t), err
}

// toField converts one value to a type amqp091-go writes.
func toField(v any) (any, error) { return sent.Value(v) }

// fromTable converts a received AMQP table to a map; nested tables become
// maps too. A table with nothing nested (the family's headers) is the map
// itself, not a copy: the delivery's table is the consumer's alone.
func fromTable(t amqp.Table) map[string]any {
	if t != nil && flat(t) {
		return map[string]any(t)
	}
	m := make(map[string]any, len(t))
	for k, v := range t {
		m[k] = fromField(v)
	}
	return m
}

// flat reports whether no value of t is a table or a list.
func flat(t amqp.Table) bool {
	for _, v := range t {
		switch v.(type) {
		case amqp.Table, []any:
			return false
		}
	}
	return true
}

func fromField(v any) any {
	switch x := v.(type) {
	case amqp.Table:
		return fromTable(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = fromField(e)
		}
		return out
	}
	return v
}

// toPublishing builds the AMQP message for msg. It refuses what the broker
// would answer by closing the publishing channel (failing every other
// publish in flight on it), such as an expiration that is not whole
// milliseconds.
func toPublishing(msg driver.Outbound) (amqp.Publishing, error) {
	headers, err := toTable(msg.Headers)
	if err == nil {
		err = checkExpiration(msg.Expiration)
	}
	if err != nil {
		return amqp.Publishing{}, fmt.Errorf("message %s: %w", msg.MessageID, err)
	}
	p := amqp.Publishing{Headers: headers, ContentType: msg.ContentType, MessageId: msg.MessageID,
		ReplyTo: msg.ReplyTo, CorrelationId: msg.CorrelationID, Expiration: msg.Expiration,
		Body: msg.Body, DeliveryMode: amqp.Transient}
	if msg.Persistent {
		p.DeliveryMode = amqp.Persistent
	}
	return p, nil
}

func checkExpiration(e string) error {
	if !amqpvalue.ValidExpiration(e) {
		return fmt.Errorf("expiration %q is not a whole number of milliseconds (0 to %d)", e, amqpvalue.MaxExpiration)
	}
	return nil
}

// toDelivery maps a received AMQP delivery; its acknowledger settles it on
// the channel it came from.
func toDelivery(d amqp.Delivery) driver.Delivery { return gatedDelivery(d, nil) }

// gatedDelivery is toDelivery for a delivery whose channel a subscription
// may close while it is being settled: its settlements pass through g.
func gatedDelivery(d amqp.Delivery, g *settleGate) driver.Delivery {
	return driver.Delivery{Body: d.Body, ContentType: d.ContentType, Exchange: d.Exchange,
		RoutingKey: d.RoutingKey, MessageID: d.MessageId, ReplyTo: d.ReplyTo,
		CorrelationID: d.CorrelationId, Expiration: d.Expiration, Headers: fromTable(d.Headers),
		Redelivered: d.Redelivered, Acker: acker{ch: d.Acknowledger, tag: d.DeliveryTag, id: d.MessageId, gate: g}}
}

// acker settles one delivery on its channel. It keeps only what settling
// needs, not the whole amqp.Delivery, so the Acknowledger boxed for every
// delivery is small.
type acker struct {
	ch   amqp.Acknowledger
	tag  uint64
	id   string
	gate *settleGate // nil: the channel is not closed under the delivery
}

func newAcker(d amqp.Delivery) acker {
	return acker{ch: d.Acknowledger, tag: d.DeliveryTag, id: d.MessageId}
}

// errNoChannel is the error of settling a delivery that came with no
// channel to settle it on (amqp091-go's own zero Delivery).
var errNoChannel = errors.New("the delivery has no channel to settle it on")

// channel is the channel to settle on, or errNoChannel.
func (a acker) channel() (amqp.Acknowledger, error) {
	if a.ch == nil {
		return nil, errNoChannel
	}
	return a.ch, nil
}

// Ack acknowledges the delivery.
func (a acker) Ack() error {
	ch, err := a.channel()
	if err == nil {
		err = a.gate.ack(a.tag, func() error { return ch.Ack(a.tag, false) })
	}
	if err != nil {
		return fmt.Errorf("acemq: cannot ack message %s (the broker will deliver it again): %w", a.id, err)
	}
	return nil
}

// Nack rejects the delivery, requeueing it when requeue is true.
func (a acker) Nack(requeue bool) error {
	ch, err := a.channel()
	if err == nil {
		err = a.gate.settle(a.tag, func() error { return ch.Nack(a.tag, false, requeue) })
	}
	if err != nil {
		return fmt.Errorf("acemq: cannot nack message %s (the broker will deliver it again): %w", a.id, err)
	}
	return nil
}
