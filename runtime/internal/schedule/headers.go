package schedule

import (
	"maps"
	"strings"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
	"github.com/acemq/acemq-gen/runtime/internal/headerval"
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
	exchange, hasExchange := headerval.String(headers, semconv.HeaderScheduleExchange)
	key, hasKey := headerval.String(headers, semconv.HeaderScheduleRoutingKey)
	due, hasDue := headerval.Millis(headers, semconv.HeaderScheduleDueAt)
	contentType, _ := headerval.String(headers, semconv.HeaderScheduleContentType)
	id, _ := headerval.String(headers, semconv.HeaderScheduleID)
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
