package acemq

import (
	"context"
	"time"
)

// Health statuses, worst last.
const (
	HealthUp       = "up"
	HealthDegraded = "degraded"
	HealthDown     = "down"
)

// DefaultHealthTimeout bounds a Health probe when ctx has no earlier deadline.
const DefaultHealthTimeout = 3 * time.Second

// HealthReport is the answer of Conn.Health. Parts holds "consumers" (the
// number of running consumers) and, after a probe, "roundTripMillis".
type HealthReport struct {
	Status  string
	Detail  string
	Checked time.Time
	Parts   map[string]any
}

// Health probes the broker with a round trip: it redeclares the
// connection's own exclusive, auto-delete probe queue (acemq-health-<uuid>,
// one per connection). A closed connection is down without a probe. A
// connection the broker blocked (see BlockedReporter) answers up at once,
// without a probe, with Detail "the broker has blocked this connection;
// publishing is paused: <reason>" and Parts "blocked" and "blockedReason".
// Safe for concurrent use.
func (c *Conn) Health(ctx context.Context) HealthReport {
	r := HealthReport{Status: HealthUp, Checked: time.Now().UTC(), Parts: map[string]any{"consumers": c.consumerCount()}}
	if c.isClosed() {
		r.Status, r.Detail = HealthDown, "the connection has been closed"
		return r
	}
	if c.blockedReport(&r) {
		return r
	}
	ctx, cancel := context.WithTimeout(ctx, DefaultHealthTimeout)
	defer cancel()
	start := time.Now()
	err := c.transport.DeclareQueue(ctx, c.healthQueue, QueueSpec{Exclusive: true, AutoDelete: true})
	r.Parts["roundTripMillis"] = time.Since(start).Milliseconds()
	if err != nil {
		r.Status, r.Detail = HealthDown, err.Error()
	}
	return r
}
