package schedule

import (
	"maps"
	"strconv"
	"strings"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
)

// Ticket is what the bookkeeping headers say about a scheduled message.
type Ticket struct {
	ID          string
	Exchange    string
	RoutingKey  string
	DueAt       time.Time
	ContentType string
}

// Stamp writes t's bookkeeping headers into headers.
func (t Ticket) Stamp(headers map[string]any) {
	headers[semconv.HeaderScheduleExchange] = t.Exchange
	headers[semconv.HeaderScheduleRoutingKey] = t.RoutingKey
	headers[semconv.HeaderScheduleDueAt] = t.DueAt.UnixMilli()
	headers[semconv.HeaderScheduleContentType] = t.ContentType
	if t.ID != "" {
		headers[semconv.HeaderScheduleID] = t.ID
	}
}

// Read reads the bookkeeping headers; ok is false when the exchange, the
// routing key or a readable due time is missing.
func Read(headers map[string]any) (t Ticket, ok bool) {
	exchange, hasExchange := text(headers[semconv.HeaderScheduleExchange])
	key, hasKey := text(headers[semconv.HeaderScheduleRoutingKey])
	due, hasDue := millis(headers[semconv.HeaderScheduleDueAt])
	contentType, _ := text(headers[semconv.HeaderScheduleContentType])
	id, _ := text(headers[semconv.HeaderScheduleID])
	t = Ticket{ID: id, Exchange: exchange, RoutingKey: key, DueAt: time.UnixMilli(due), ContentType: contentType}
	return t, hasExchange && hasKey && hasDue
}

// Delivered returns a copy of headers for the final delivery: every
// x-schedule-* header stripped, semconv.HeaderDueAt stamped with due.
func Delivered(headers map[string]any, due time.Time) map[string]any {
	out := maps.Clone(headers)
	maps.DeleteFunc(out, func(name string, _ any) bool {
		return strings.HasPrefix(name, semconv.HeaderSchedulePrefix)
	})
	if out == nil {
		out = map[string]any{}
	}
	out[semconv.HeaderDueAt] = due.UTC().Format("2006-01-02T15:04:05.000Z07:00")
	return out
}

// text reads a string header, which may arrive as bytes.
func text(v any) (string, bool) {
	switch s := v.(type) {
	case string:
		return s, true
	case []byte:
		return string(s), true
	}
	return "", false
}

// millis reads an epoch-milliseconds header of any integer width, a float
// or a decimal string.
func millis(v any) (int64, bool) {
	switch n := v.(type) {
	case int64:
		return n, true
	case int32:
		return int64(n), true
	case int:
		return int64(n), true
	case uint32:
		return int64(n), true
	case uint64:
		return int64(n), true
	case float64:
		return int64(n), true
	}
	if s, ok := text(v); ok {
		n, err := strconv.ParseInt(s, 10, 64)
		return n, err == nil
	}
	return 0, false
}
