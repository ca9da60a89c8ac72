package acemq

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// Health statuses, worst last.
const (
	HealthUp       = "up"
	HealthDegraded = "degraded"
	HealthDown     = "down"
)

// defaultHealthTimeout bounds a Health probe when ctx has no earlier deadline.
const defaultHealthTimeout = 3 * time.Second

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
// A connection that would be up but has a consumer the broker cancelled
// (its queue deleted; the consumer declares it again and consumes again, see
// Consumer.Interrupted) is degraded, Detail naming the queue and the reason,
// Parts "interrupted" listing the queues.
// Safe for concurrent use.
func (c *Conn) Health(ctx context.Context) HealthReport {
	r := HealthReport{Status: HealthUp, Checked: time.Now().UTC(), Parts: map[string]any{"consumers": c.consumerCount()}}
	if c.isClosed() {
		r.Status, r.Detail = HealthDown, "the connection has been closed"
		return r
	}
	if c.blockedReport(&r) {
		c.interruptedReport(&r)
		return r
	}
	ctx, cancel := context.WithTimeout(ctx, defaultHealthTimeout)
	defer cancel()
	start := time.Now()
	err := c.transport.DeclareQueue(ctx, c.healthQueue, driver.QueueSpec{Exclusive: true, AutoDelete: true})
	r.Parts["roundTripMillis"] = time.Since(start).Milliseconds()
	if err != nil {
		r.Status, r.Detail = HealthDown, err.Error()
	}
	c.interruptedReport(&r)
	return r
}

// interruptedReport makes an up r degraded while a consumer of the
// connection is interrupted (Consumer.Interrupted), naming the first in
// Detail and every such queue in Parts "interrupted".
func (c *Conn) interruptedReport(r *HealthReport) {
	var queues []string
	detail := ""
	for _, k := range c.consumerList() {
		if err := k.Interrupted(); err != nil {
			if detail == "" {
				detail = fmt.Sprintf("the consumer of queue %q is not consuming: %v", k.queue, err)
			}
			queues = append(queues, k.queue)
		}
	}
	if len(queues) == 0 {
		return
	}
	slices.Sort(queues)
	r.Parts["interrupted"] = queues
	if r.Status == HealthUp {
		r.Status, r.Detail = HealthDegraded, detail
	}
}
