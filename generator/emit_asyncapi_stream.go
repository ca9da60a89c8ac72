package generator

import "github.com/acemq/acemq-gen/runtime/acemqimpl"

// stream adds a stream's channel (its queue, of type stream, with its
// retention), its append and read operations and its message.
func (b *docBuilder) stream(m *message) {
	ch := object{{"address", m.Queue}}
	if m.Doc != "" {
		ch = append(ch, member{"description", m.Doc})
	}
	ch = append(ch, member{"messages", object{{m.Name, ref("#/components/messages/" + m.Name)}}},
		member{"bindings", queueBinding(m.Queue)}, member{"x-queue-type", "stream"})
	if r := streamRetention(m.Retention); len(r) > 0 {
		ch = append(ch, member{"x-acemq-retention", r})
	}
	ch = append(ch, member{"x-acemq-dead-letter", object{{"queue", m.Queue + ".dlq"}, {"parked", m.Queue + ".parked"}}})
	b.channels = append(b.channels, member{m.Name, ch})
	msgs := []any{ref("#/channels/" + m.Name + "/messages/" + m.Name)}
	b.operations = append(b.operations,
		member{"append" + m.Name, object{{"action", "send"}, {"channel", ref("#/channels/" + m.Name)},
			{"summary", "Appends a record to the stream " + m.Queue + " (through the default exchange)."},
			{"messages", msgs}, {"bindings", operationBinding(true, false)}}},
		member{"read" + m.Name, object{{"action", "receive"}, {"channel", ref("#/channels/" + m.Name)},
			{"summary", "Reads the stream " + m.Queue + " from a position (x-stream-offset: first, next, last, an offset or a timestamp)."},
			{"messages", msgs}, {"bindings", operationBinding(true, true)}}})
	b.messages = append(b.messages, member{m.Name, b.messageObject(m)})
}

// streamRetention is a stream's retention as its queue arguments hold it
// (x-max-age as acemqimpl.StreamMaxAge renders it), those set.
func streamRetention(r retention) object {
	o := object{}
	if r.MaxAge > 0 {
		o = append(o, member{"x-max-age", acemqimpl.StreamMaxAge(r.MaxAge)})
	}
	if r.MaxBytes > 0 {
		o = append(o, member{"x-max-length-bytes", r.MaxBytes})
	}
	if r.SegmentBytes > 0 {
		o = append(o, member{"x-stream-max-segment-size-bytes", r.SegmentBytes})
	}
	return o
}
