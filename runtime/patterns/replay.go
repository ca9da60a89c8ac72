package patterns

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
)

// The replay stamps (FAMILY-SPEC §2.3): application headers, outside the
// reserved x-acemq- namespace, written on every message Replay moves.
const (
	// HeaderReplayedFrom names the queue the message was replayed from.
	HeaderReplayedFrom = "acemq-replayed-from"
	// HeaderReplayedAt is when it was replayed, RFC 3339 in UTC.
	HeaderReplayedAt = "acemq-replayed-at"
	// HeaderReplayCount counts the replays the message has been through.
	HeaderReplayCount = "acemq-replay-count"
)

// The reasons a ReplayResult gives for messages it did not move.
const (
	// ReplaySkippedByFilter: the filter declined them; they stay where they were.
	ReplaySkippedByFilter = "declined by the filter"
	// ReplaySkippedByLimit: the limit was reached before they were looked at.
	ReplaySkippedByLimit = "limit"
)

// replayHopTimeout bounds the publish and ack of one message once started:
// a cancelled replay finishes the message it is moving rather than leaving
// a copy whose original is still on the queue.
const replayHopTimeout = 30 * time.Second

// ReplayFrom says what Replay moves and where to.
type ReplayFrom struct {
	// Queue is the dead-letter or parked queue to read. Required.
	Queue string
	// Exchange is where the messages are published; "" is the default
	// exchange, which routes to the queue RoutingKey names.
	Exchange string
	// RoutingKey is the key every message is published with. Exchange and
	// RoutingKey cannot both be empty.
	RoutingKey string
	// Limit is the most messages moved; 0 moves every one that matches.
	Limit int
	// Filter picks the messages to move, from their envelope and raw body
	// (a body on a dead-letter queue is not guaranteed to decode); nil moves
	// every message. What it declines stays where it was, in order.
	Filter func(env acemq.Envelope, body []byte) bool
	// KeepAttempts keeps each message's attempt and error as they were;
	// by default a replayed message starts again on attempt 1 with no error.
	KeepAttempts bool
}

// ReplayResult is what one Replay did.
type ReplayResult struct {
	// Moved counts the messages published, confirmed and then acked.
	Moved int
	// Declined counts the messages the filter declined (left in place).
	Declined int
	// PastLimit counts the messages still ready, unread, when the limit was
	// reached (as the broker counted them then).
	PastLimit int
	// Skipped is Declined + PastLimit.
	Skipped int
	// Reason says why any were skipped: ReplaySkippedByFilter,
	// ReplaySkippedByLimit, or both joined by " and "; "" when none were.
	Reason string
}

// String renders the result: "moved 500, skipped 31 (limit)".
func (r ReplayResult) String() string {
	if r.Skipped == 0 && r.Reason == "" {
		return fmt.Sprintf("moved %d", r.Moved)
	}
	return fmt.Sprintf("moved %d, skipped %d (%s)", r.Moved, r.Skipped, r.Reason)
}

// Replay moves the messages of from.Queue that from.Filter picks, up to
// from.Limit, to from.Exchange with from.RoutingKey. Each is published as
// the same bytes (mandatory, with publisher confirms) with its attempt reset
// to 1 and its error cleared unless KeepAttempts, stamped with
// HeaderReplayedFrom, HeaderReplayedAt and HeaderReplayCount; the original is
// acked only after the broker has confirmed the copy, so a failure in that
// gap leaves a duplicate, never a loss. Declined messages are held unsettled
// until the pass ends and then returned together, in their places.
//
// A pass reads at most the messages ready when it starts, so copies that come
// back to the same queue during it are not read again. A copy that reaches no
// queue is an unroutable *acemq.PublishFailedError and its original stays.
// When ctx ends, the message being moved is finished and the pass stops,
// returning what it moved with ctx's error. The transport must hold messages
// (driver.Holder) and confirm publishes. Safe for concurrent use, but two
// replays of one queue compete for its messages.
func Replay(ctx context.Context, conn *acemq.Conn, from ReplayFrom) (ReplayResult, error) {
	if err := from.check(conn); err != nil {
		return ReplayResult{}, err
	}
	ready, err := conn.MessageCount(ctx, from.Queue)
	if err != nil {
		return ReplayResult{}, err
	}
	held, err := conn.Hold(ctx, from.Queue)
	if err != nil {
		return ReplayResult{}, err
	}
	p := &replayPass{conn: conn, from: from, held: held}
	err = p.run(ctx, ready)
	if cerr := held.Close(); cerr != nil && err == nil {
		err = fmt.Errorf("acemq: cannot return the declined messages to queue %q: %w", from.Queue, cerr)
	}
	return p.result(), err
}

// check refuses a ReplayFrom or a connection Replay cannot work with.
func (f ReplayFrom) check(conn *acemq.Conn) error {
	switch {
	case conn == nil:
		return errors.New("acemq: Replay was given a nil connection")
	case f.Queue == "":
		return errors.New("acemq: Replay needs the queue to read (ReplayFrom.Queue)")
	case f.Exchange == "" && f.RoutingKey == "":
		return errors.New("acemq: Replay needs an exchange or a routing key to send the messages to")
	case f.Limit < 0:
		return fmt.Errorf("acemq: the replay limit must not be negative, got %d", f.Limit)
	case !conn.Supports(driver.CapabilityPublisherConfirms):
		return errors.New("acemq: Replay needs publisher confirms, because it acks each message only after its copy is confirmed")
	}
	return nil
}

// replayPass is one Replay in progress. Used by one goroutine.
type replayPass struct {
	conn     *acemq.Conn
	from     ReplayFrom
	held     driver.HeldQueue
	moved    int
	declined int
	past     int
	limited  bool
}

// run reads up to ready messages, moving or holding each.
func (p *replayPass) run(ctx context.Context, ready int) error {
	for range ready {
		if p.from.Limit > 0 && p.moved >= p.from.Limit {
			return p.stopAtLimit(ctx)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		d, ok, err := p.held.Next(ctx)
		if err != nil || !ok {
			return err
		}
		env := acemq.EnvelopeFromWire(d.Headers, d.RoutingKey, d.MessageID)
		if p.from.Filter != nil && !p.from.Filter(env, d.Body) {
			p.declined++
			continue // held until the pass ends
		}
		if err := p.move(ctx, d, env); err != nil {
			return err
		}
	}
	return nil
}

// stopAtLimit records how many ready messages the limit left unread.
func (p *replayPass) stopAtLimit(ctx context.Context) error {
	p.limited = true
	if n, err := p.conn.MessageCount(ctx, p.from.Queue); err == nil {
		p.past = n
	}
	return nil
}

// move publishes d's copy and acks d once the copy is confirmed. Once begun
// it runs to the end, whatever ctx does, within replayHopTimeout.
func (p *replayPass) move(ctx context.Context, d driver.Delivery, env acemq.Envelope) error {
	hop, cancel := context.WithTimeout(context.WithoutCancel(ctx), replayHopTimeout)
	defer cancel()
	out := driver.Outbound{
		Body: d.Body, ContentType: d.ContentType, MessageID: d.MessageID,
		Headers: replayHeaders(d.Headers, p.from, time.Now()),
		ReplyTo: d.ReplyTo, CorrelationID: d.CorrelationID, Persistent: true, Mandatory: true,
	}
	res, err := p.conn.PublishRaw(hop, p.from.Exchange, p.from.RoutingKey, out)
	if err != nil {
		return &acemq.PublishFailedError{MessageID: env.ID, Exchange: p.from.Exchange, RoutingKey: p.from.RoutingKey, Err: err}
	}
	if !res.Routed {
		return &acemq.PublishFailedError{MessageID: env.ID, Exchange: p.from.Exchange, RoutingKey: p.from.RoutingKey,
			Unroutable: true, Err: errors.New(firstNonEmpty(res.ReturnReason, "312 NO_ROUTE"))}
	}
	if !res.Confirmed {
		return fmt.Errorf("acemq: the broker did not confirm the replayed copy of message %s, so the original stays on %q", env.ID, p.from.Queue)
	}
	if err := d.Ack(); err != nil {
		return fmt.Errorf("acemq: message %s was replayed but its original could not be acked, so it is on %q twice: %w", env.ID, p.from.Queue, err)
	}
	p.moved++
	return nil
}

// result is what the pass did.
func (p *replayPass) result() ReplayResult {
	r := ReplayResult{Moved: p.moved, Declined: p.declined, PastLimit: p.past}
	r.Skipped = r.Declined + r.PastLimit
	var reasons []string
	if p.declined > 0 {
		reasons = append(reasons, ReplaySkippedByFilter)
	}
	if p.limited && p.past > 0 {
		reasons = append(reasons, ReplaySkippedByLimit)
	}
	r.Reason = strings.Join(reasons, " and ")
	return r
}

// replayHeaders is the copy's headers table: the original's, less what the
// broker wrote about its last journey and the x-acemq-replayed-* spellings,
// with the attempt reset and the error cleared unless from.KeepAttempts,
// and the replay stamps.
func replayHeaders(h map[string]any, from ReplayFrom, now time.Time) map[string]any {
	out := make(map[string]any, len(h)+3)
	for k, v := range h {
		if brokerWritten(k) || strings.HasPrefix(k, "x-acemq-replay") {
			continue
		}
		out[k] = v
	}
	if !from.KeepAttempts {
		out[semconv.HeaderAttempt] = int64(1)
		delete(out, semconv.HeaderError)
	}
	out[HeaderReplayedFrom] = from.Queue
	out[HeaderReplayedAt] = now.UTC().Format(time.RFC3339)
	out[HeaderReplayCount] = replayCount(h) + 1
	return out
}

// brokerWritten reports the headers RabbitMQ writes on dead-lettering and
// redelivery, which describe the old journey (RabbitMQ 4 ignores a
// client-written x-death anyway).
func brokerWritten(name string) bool {
	return name == "x-death" || name == "x-delivery-count" ||
		strings.HasPrefix(name, "x-first-death-") || strings.HasPrefix(name, "x-last-death-")
}

// replayCount reads HeaderReplayCount of any integer width or as a decimal
// string; absent or unreadable is 0.
func replayCount(h map[string]any) int64 {
	if n, ok := headerMillis(h, HeaderReplayCount); ok {
		return n
	}
	switch v := h[HeaderReplayCount].(type) {
	case int8:
		return int64(v)
	case int16:
		return int64(v)
	case uint8:
		return int64(v)
	case uint16:
		return int64(v)
	case uint64:
		return int64(v)
	}
	if s, ok := headerString(h, HeaderReplayCount); ok {
		n, _ := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
		return n
	}
	return 0
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
