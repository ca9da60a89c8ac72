package patterns

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"strings"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
	"github.com/acemq/acemq-gen/runtime/internal/schedule"
)

// dropIfCancelled reports whether id is cancelled (its marker queue
// exists), deleting the marker once the message is dropped.
func (s *Scheduler) dropIfCancelled(ctx context.Context, id string) (bool, error) {
	if id == "" {
		return false, nil
	}
	marker := schedule.CancelMarker(id)
	cancelled, err := s.conn.QueueExists(ctx, marker)
	if err != nil || !cancelled {
		return false, err
	}
	s.cancelled.Add(1)
	if err := s.conn.DeleteQueue(ctx, marker); err != nil {
		s.conn.Logger().Warn("acemq: cannot delete the cancellation of a scheduled message", "id", id, "error", err)
	}
	return true, nil
}

// hop puts m, unchanged but for the broker's x-death headers, on rung.
func (s *Scheduler) hop(ctx context.Context, m acemq.Message[[]byte], rung string) error {
	out := outboundOf(m, withoutDeaths(m.Envelope.ToWire()), m.ContentType)
	if err := s.publish(ctx, semconv.ScheduleExchange, rung, out); err != nil {
		return err
	}
	s.hops.Add(1)
	return nil
}

// deliver publishes m to its destination, as it was scheduled, and records
// how late it is.
func (s *Scheduler) deliver(ctx context.Context, m acemq.Message[[]byte], t schedule.Ticket) error {
	contentType := t.ContentType
	if contentType == "" {
		contentType = acemq.JSONCodec{}.ContentType()
	}
	headers := schedule.Delivered(withoutDeaths(m.Envelope.ToWire()), t.DueAt)
	if err := s.publish(ctx, t.Exchange, t.RoutingKey, outboundOf(m, headers, contentType)); err != nil {
		return err
	}
	s.delivered.Add(1)
	s.conn.Observer().Observe(semconv.MetricScheduleLateness, time.Since(t.DueAt).Seconds(),
		semconv.Labels{semconv.LabelExchange: t.Exchange, semconv.LabelRoutingKey: t.RoutingKey})
	return nil
}

// publish sends out mandatory and confirmed, a message that reached no
// queue being an acemq.ErrUnroutable error.
func (s *Scheduler) publish(ctx context.Context, exchange, key string, out driver.Outbound) error {
	res, err := s.conn.PublishRaw(ctx, exchange, key, out)
	switch {
	case err != nil:
		return &acemq.PublishFailedError{MessageID: out.MessageID, Exchange: exchange, RoutingKey: key, Err: err}
	case !res.Routed:
		return &acemq.PublishFailedError{MessageID: out.MessageID, Exchange: exchange, RoutingKey: key,
			Unroutable: true, Err: errors.New(firstNonEmpty(res.ReturnReason, "312 NO_ROUTE"))}
	case !res.Confirmed:
		return fmt.Errorf("acemq: the broker did not confirm scheduled message %s on %q/%q, so it stays on %s",
			out.MessageID, exchange, key, semconv.ScheduleDueQueue)
	}
	return nil
}

// outboundOf is m's body with headers, persistent and mandatory.
func outboundOf(m acemq.Message[[]byte], headers map[string]any, contentType string) driver.Outbound {
	return driver.Outbound{Body: m.Body, ContentType: contentType, MessageID: m.Envelope.ID, Headers: headers,
		ReplyTo: m.Envelope.ReplyTo, Persistent: true, Mandatory: true}
}

// withoutDeaths drops the headers the broker adds when it dead-letters a
// message (x-death, x-first-death-*, x-last-death-*), which a rung does at
// every hop.
func withoutDeaths(h map[string]any) map[string]any {
	maps.DeleteFunc(h, func(name string, _ any) bool {
		return name == "x-death" || strings.HasPrefix(name, "x-first-death-") || strings.HasPrefix(name, "x-last-death-")
	})
	return h
}
