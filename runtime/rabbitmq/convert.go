package rabbitmq

import (
	"fmt"
	"math"
	"strconv"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

// toTable converts headers or x-arguments to an AMQP table, refusing values
// AMQP cannot carry.
func toTable(m map[string]any) (amqp.Table, error) {
	if m == nil {
		return nil, nil
	}
	t := make(amqp.Table, len(m))
	for k, v := range m {
		fv, err := toField(v)
		if err != nil {
			return nil, fmt.Errorf("header or argument %q: %w", k, err)
		}
		t[k] = fv
	}
	return t, nil
}

// toField converts one value to a type amqp091-go writes.
func toField(v any) (any, error) {
	switch x := v.(type) {
	case nil, bool, int8, int16, int32, int64, uint8, uint16, uint32, float32, float64,
		string, []byte, amqp.Decimal, time.Time:
		return x, nil
	case int: // amqp091 writes an int as 32 bits: keep that when it fits, else send 64
		if x >= math.MinInt32 && x <= math.MaxInt32 {
			return x, nil
		}
		return int64(x), nil
	case uint:
		return toField(uint64(x))
	case uint64:
		if x > math.MaxInt64 {
			return nil, fmt.Errorf("%d does not fit the signed 64 bits AMQP carries", x)
		}
		return int64(x), nil
	case map[string]any:
		return toTable(x)
	case amqp.Table:
		return toTable(x)
	case []string:
		return stringsToList(x), nil
	case []any:
		return toList(x)
	}
	return nil, fmt.Errorf("a %T cannot travel in an AMQP table", v)
}

func stringsToList(xs []string) []any {
	out := make([]any, len(xs))
	for i, s := range xs {
		out[i] = s
	}
	return out
}

func toList(xs []any) ([]any, error) {
	out := make([]any, len(xs))
	for i, x := range xs {
		v, err := toField(x)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// fromTable converts a received AMQP table to a map; nested tables become
// maps too.
func fromTable(t amqp.Table) map[string]any {
	m := make(map[string]any, len(t))
	for k, v := range t {
		m[k] = fromField(v)
	}
	return m
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
func toPublishing(msg acemq.Outbound) (amqp.Publishing, error) {
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
	if e == "" {
		return nil
	}
	if n, err := strconv.ParseUint(e, 10, 32); err != nil || n > math.MaxInt32 {
		return fmt.Errorf("expiration %q is not a whole number of milliseconds (0 to %d)", e, math.MaxInt32)
	}
	return nil
}

// toDelivery maps a received AMQP delivery; its acknowledger settles it on
// the channel it came from.
func toDelivery(d amqp.Delivery) acemq.Delivery {
	return acemq.Delivery{Body: d.Body, ContentType: d.ContentType, Exchange: d.Exchange,
		RoutingKey: d.RoutingKey, MessageID: d.MessageId, ReplyTo: d.ReplyTo,
		CorrelationID: d.CorrelationId, Expiration: d.Expiration, Headers: fromTable(d.Headers),
		Redelivered: d.Redelivered, Acker: acker{d: d}}
}

// acker settles one delivery on its channel.
type acker struct{ d amqp.Delivery }

// Ack acknowledges the delivery.
func (a acker) Ack() error {
	if err := a.d.Ack(false); err != nil {
		return fmt.Errorf("acemq: cannot ack message %s (the broker will deliver it again): %w", a.d.MessageId, err)
	}
	return nil
}

// Nack rejects the delivery, requeueing it when requeue is true.
func (a acker) Nack(requeue bool) error {
	if err := a.d.Nack(false, requeue); err != nil {
		return fmt.Errorf("acemq: cannot nack message %s (the broker will deliver it again): %w", a.d.MessageId, err)
	}
	return nil
}
