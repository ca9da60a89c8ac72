package rabbitmq

import (
	"time"

	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

// publishing builds the AMQP message for msg (toPublishing) and refuses,
// before anything is written, one whose content header frame would exceed
// the connection's frame_max: the broker would close the whole connection
// for it, and the transport would send it again after every recovery.
func (t *Transport) publishing(msg acemq.Outbound) (amqp.Publishing, error) {
	pm, err := toPublishing(msg)
	if err != nil {
		return pm, err
	}
	if limit := int(t.frameMax.Load()); limit > 0 {
		if size := contentHeaderSize(pm); size > limit {
			return pm, &acemq.FrameTooLargeError{Frame: "content header", Size: size, Limit: limit}
		}
	}
	return pm, nil
}

// FrameMax returns the frame_max (bytes) negotiated with the broker on the
// last connection: the largest frame either side sends, and so the bound on
// a message's properties and headers (its content header frame); 0 for no
// bound. A publish whose content header would not fit fails at once with an
// *acemq.FrameTooLargeError (errors.Is acemq.ErrBrokerRefused). Safe for
// concurrent use.
func (t *Transport) FrameMax() int { return int(t.frameMax.Load()) }

// contentHeaderSize is the size of the content header frame amqp091-go
// writes for p: frame header, class, weight, body size, flags, the
// properties present and the frame end.
func contentHeaderSize(p amqp.Publishing) int {
	n := frameHeaderSize + contentHeaderFixed + frameEndSize
	for _, s := range []string{p.ContentType, p.ContentEncoding, p.CorrelationId, p.ReplyTo,
		p.Expiration, p.MessageId, p.Type, p.UserId, p.AppId} {
		if s != "" {
			n += 1 + len(s)
		}
	}
	if len(p.Headers) > 0 {
		n += tableSize(p.Headers)
	}
	if p.DeliveryMode > 0 {
		n++
	}
	if p.Priority > 0 {
		n++
	}
	if !p.Timestamp.IsZero() {
		n += 8
	}
	return n
}

// tableSize is the encoded size of a field table: its length and entries.
func tableSize(t amqp.Table) int {
	n := 4
	for k, v := range t {
		n += 1 + len(k) + fieldSize(v)
	}
	return n
}

// fieldSize is the encoded size of a field (type octet and value) as
// amqp091-go writes it; 0 for a type it does not write.
func fieldSize(v any) int {
	switch x := v.(type) {
	case nil:
		return 1
	case bool, byte, int8:
		return 2
	case int16, uint16:
		return 3
	case int, int32, uint32, float32:
		return 5
	case int64, float64, time.Time:
		return 9
	case amqp.Decimal:
		return 6
	case string:
		return 5 + len(x)
	case []byte:
		return 5 + len(x)
	case []any:
		n := 5
		for _, e := range x {
			n += fieldSize(e)
		}
		return n
	case amqp.Table:
		return 1 + tableSize(x)
	}
	return 0
}
