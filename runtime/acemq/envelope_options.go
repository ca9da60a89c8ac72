package acemq

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// ReservedHeaderPrefix is the namespace of the envelope's own headers.
// Application headers with it are refused on publish and dropped on consume.
const ReservedHeaderPrefix = "x-acemq-"

// EnvelopeOption sets one field of an envelope; it fails when the value is
// unusable. Options are accepted by NewEnvelope and by every Send.
type EnvelopeOption func(*Envelope) error

// ReservedHeaderError is the error for an application header named in the
// reserved x-acemq- namespace.
func ReservedHeaderError(name string) error {
	return fmt.Errorf("acemq: header %q is in the reserved %q namespace and would be dropped on consume; use a namespace of your own, such as x-yourcompany-", name, ReservedHeaderPrefix)
}

// isReserved reports whether name is in the reserved namespace (ASCII case-insensitive).
func isReserved(name string) bool {
	return len(name) >= len(ReservedHeaderPrefix) &&
		strings.EqualFold(name[:len(ReservedHeaderPrefix)], ReservedHeaderPrefix)
}

// MessageID sets the envelope's ID (and so the AMQP message-id). Empty is refused.
func MessageID(id string) EnvelopeOption {
	return func(e *Envelope) error {
		if id == "" {
			return errors.New("acemq: MessageID must not be empty")
		}
		e.ID = id
		return nil
	}
}

// MessageType sets the envelope's Type (default: the routing key). Empty is refused.
func MessageType(typ string) EnvelopeOption {
	return func(e *Envelope) error {
		if typ == "" {
			return errors.New("acemq: MessageType must not be empty")
		}
		e.Type = typ
		return nil
	}
}

// SchemaVersion sets the envelope's Version (default 1); below 1 is refused.
func SchemaVersion(v int) EnvelopeOption {
	return func(e *Envelope) error {
		if v < 1 {
			return fmt.Errorf("acemq: SchemaVersion must be at least 1, got %d", v)
		}
		e.Version = v
		return nil
	}
}

// CorrelationID sets the envelope's CorrelationID (default: the ID).
func CorrelationID(id string) EnvelopeOption {
	return func(e *Envelope) error { e.CorrelationID = id; return nil }
}

// CausationID sets the ID of the message that caused this one (default none).
func CausationID(id string) EnvelopeOption {
	return func(e *Envelope) error { e.CausationID = id; return nil }
}

// Attempt sets the delivery attempt (default 1); below 1 is refused.
func Attempt(n int) EnvelopeOption {
	return func(e *Envelope) error {
		if n < 1 {
			return fmt.Errorf("acemq: Attempt must be at least 1, got %d", n)
		}
		e.Attempt = n
		return nil
	}
}

// FirstSeen sets when the message was first seen (default now), kept in UTC
// at millisecond precision, as the wire carries it. The zero time is refused.
func FirstSeen(t time.Time) EnvelopeOption {
	return func(e *Envelope) error {
		if t.IsZero() {
			return errors.New("acemq: FirstSeen must not be the zero time")
		}
		e.FirstSeen = t.UTC().Truncate(time.Millisecond)
		return nil
	}
}

// Origin names the publisher (default defaultOrigin(); empty omits the header).
func Origin(origin string) EnvelopeOption {
	return func(e *Envelope) error { e.Origin = origin; return nil }
}

// DeadLetterReason sets the envelope's Error, the reason a message was set aside.
func DeadLetterReason(reason string) EnvelopeOption {
	return func(e *Envelope) error { e.Error = reason; return nil }
}

// Claim sets the reserved claim header (written only when non-empty).
func Claim(claim string) EnvelopeOption {
	return func(e *Envelope) error { e.Claim = claim; return nil }
}

// ReplyTo sets the queue a reply should go to (the AMQP reply-to property).
func ReplyTo(queue string) EnvelopeOption {
	return func(e *Envelope) error { e.ReplyTo = queue; return nil }
}

// Route puts the message on a routing slip of steps, at 0-based position,
// for the run runID. Empty steps, a step that is blank or holds a comma, and
// a negative position are refused.
func Route(steps []string, position int, runID string) EnvelopeOption {
	return func(e *Envelope) error {
		if err := checkRoute(steps, position); err != nil {
			return err
		}
		e.Route = strings.Join(steps, ",")
		e.RoutePosition = position
		e.RouteID = runID
		return nil
	}
}

func checkRoute(steps []string, position int) error {
	if len(steps) == 0 {
		return errors.New("acemq: Route needs at least one step")
	}
	for i, s := range steps {
		if strings.TrimSpace(s) == "" || strings.Contains(s, ",") {
			return fmt.Errorf("acemq: Route step %d (%q) must be a non-blank name without commas", i, s)
		}
	}
	if position < 0 {
		return fmt.Errorf("acemq: Route position must not be negative, got %d", position)
	}
	return nil
}

// Header sets an application header. An empty name is refused, and so is a
// name in the reserved x-acemq- namespace (see ReservedHeaderError).
func Header(name string, value any) EnvelopeOption {
	return func(e *Envelope) error {
		if name == "" {
			return errors.New("acemq: a header needs a name")
		}
		if isReserved(name) {
			return ReservedHeaderError(name)
		}
		if e.Headers == nil {
			e.Headers = map[string]any{}
		}
		e.Headers[name] = value
		return nil
	}
}
