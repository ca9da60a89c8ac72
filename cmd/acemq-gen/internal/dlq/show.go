package dlq

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/ops"
	"github.com/acemq/acemq-gen/generator"
	"github.com/acemq/acemq-gen/runtime/acemq"
)

// Shown is one message as dlq show prints it (a JSON array of them).
type Shown struct {
	Queue       string         `json:"queue"`
	Message     string         `json:"message,omitempty"`
	Kind        string         `json:"kind,omitempty"`
	RoutingKey  string         `json:"routingKey"`
	ContentType string         `json:"contentType,omitempty"`
	Envelope    ShownEnvelope  `json:"envelope"`
	Headers     map[string]any `json:"headers,omitempty"`
	Payload     any            `json:"payload,omitempty"`
	Body        []byte         `json:"body,omitempty"`
	Note        string         `json:"note,omitempty"`
}

// ShownEnvelope is the envelope, in the family's JSON names.
type ShownEnvelope struct {
	ID            string    `json:"id"`
	Type          string    `json:"type"`
	Version       int       `json:"version"`
	CorrelationID string    `json:"correlationId"`
	CausationID   string    `json:"causationId,omitempty"`
	Attempt       int       `json:"attempt"`
	FirstSeen     time.Time `json:"firstSeen"`
	Origin        string    `json:"origin,omitempty"`
	Error         string    `json:"error,omitempty"`
}

// Show prints every message of o.Queue, decoded with its contract's
// codec, as a JSON array; the messages stay where they were.
func Show(ctx context.Context, o Options, stdout io.Writer) error {
	return run(ctx, o, func(entries []generator.Entry) (func(*acemq.Conn) error, error) {
		dec, err := ops.NewDecoders(o.Registry)
		src, _ := ops.SourceOf(entries, o.Queue)
		return func(conn *acemq.Conn) error { return show(ctx, conn, o, src, dec, stdout) }, err
	})
}

func show(ctx context.Context, conn *acemq.Conn, o Options, src ops.Consumed, dec *ops.Decoders, stdout io.Writer) error {
	msgs, err := Peek(ctx, conn, o.Queue)
	if err != nil {
		return err
	}
	out := make([]Shown, 0, len(msgs))
	for _, m := range msgs {
		out = append(out, showOne(o, src, dec, m))
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func showOne(o Options, src ops.Consumed, dec *ops.Decoders, m Peeked) Shown {
	env := m.Envelope
	s := Shown{Queue: o.Queue, RoutingKey: m.Delivery.RoutingKey, ContentType: m.ContentType(), Headers: env.Headers,
		Envelope: ShownEnvelope{ID: env.ID, Type: env.Type, Version: env.Version, CorrelationID: env.CorrelationID,
			CausationID: env.CausationID, Attempt: env.Attempt, FirstSeen: env.FirstSeen.UTC(), Origin: env.Origin, Error: env.Error}}
	e, known := src.EntryFor(env.Type)
	if !known {
		s.Body, s.Note = m.Delivery.Body, fmt.Sprintf("no contract describes messages of type %q here; the body is shown as bytes", env.Type)
		return s
	}
	s.Message, s.Kind = e.Name, e.Kind
	if o.Raw {
		s.Body = m.Delivery.Body
		return s
	}
	payload, err := dec.Decode(e, m.ContentType(), m.Delivery.Body)
	if err != nil {
		s.Body, s.Note = m.Delivery.Body, fmt.Sprintf("cannot decode it as %s: %v; the body is shown as bytes", e.Name, err)
		return s
	}
	s.Payload = payload
	return s
}
