package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/ops"
)

// shown is one message as dlq show prints it.
type shown struct {
	Queue       string         `json:"queue"`
	Message     string         `json:"message,omitempty"`
	Kind        string         `json:"kind,omitempty"`
	RoutingKey  string         `json:"routingKey"`
	ContentType string         `json:"contentType,omitempty"`
	Envelope    shownEnvelope  `json:"envelope"`
	Headers     map[string]any `json:"headers,omitempty"`
	Payload     any            `json:"payload,omitempty"`
	Body        []byte         `json:"body,omitempty"`
	Note        string         `json:"note,omitempty"`
}

// shownEnvelope is the envelope, in the family's JSON names.
type shownEnvelope struct {
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

// dlqShow prints every message of o.queue, decoded with its contract's
// codec, as a JSON array; the messages stay where they were.
func dlqShow(ctx context.Context, o dlqOptions, stdout io.Writer) error {
	entries, err := ops.ReadCatalog(o.paths)
	if err != nil {
		return err
	}
	dec, err := ops.NewDecoders(o.registry)
	if err != nil {
		return err
	}
	conn, err := connectTo(ctx, o.url)
	if err != nil {
		return err
	}
	defer conn.Close()
	msgs, err := peek(ctx, conn, o.queue)
	if err != nil {
		return err
	}
	src, _ := ops.SourceOf(entries, o.queue)
	out := make([]shown, 0, len(msgs))
	for _, m := range msgs {
		out = append(out, showOne(o, src, dec, m))
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func showOne(o dlqOptions, src ops.Consumed, dec *ops.Decoders, m peeked) shown {
	env := m.env
	s := shown{Queue: o.queue, RoutingKey: m.d.RoutingKey, ContentType: m.d.ContentType, Headers: env.Headers,
		Envelope: shownEnvelope{ID: env.ID, Type: env.Type, Version: env.Version, CorrelationID: env.CorrelationID,
			CausationID: env.CausationID, Attempt: env.Attempt, FirstSeen: env.FirstSeen.UTC(), Origin: env.Origin, Error: env.Error}}
	e, known := src.EntryFor(env.Type)
	if !known {
		s.Body, s.Note = m.d.Body, fmt.Sprintf("no contract describes messages of type %q here; the body is shown as bytes", env.Type)
		return s
	}
	s.Message, s.Kind = e.Name, e.Kind
	if o.raw {
		s.Body = m.d.Body
		return s
	}
	payload, err := dec.Decode(e, m.d.ContentType, m.d.Body)
	if err != nil {
		s.Body, s.Note = m.d.Body, fmt.Sprintf("cannot decode it as %s: %v; the body is shown as bytes", e.Name, err)
		return s
	}
	s.Payload = payload
	return s
}
