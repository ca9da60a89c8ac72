package memq

import (
	"maps"
	"time"
)

// Dead-letter reasons, in RabbitMQ's words (the reason of an x-death entry).
const (
	deathRejected = "rejected"
	deathExpired  = "expired"
	deathMaxLen   = "maxlen"
	// deathDeliveryLimit is a quorum queue's x-delivery-limit reached.
	deathDeliveryLimit = "delivery_limit"
)

// deadLetter routes m to the queue's dead-letter exchange, if it has one,
// and drops it otherwise, as the broker does on expiry, on a nack without
// requeue and on overflow. Like the broker it records the death in the
// x-death header and, the first time, x-first-death-reason, -queue and
// -exchange, and removes the message's expiration. Call with b.mu held.
func (q *memQueue) deadLetter(m *memMessage, reason string) {
	if !q.hasDLX {
		return
	}
	key := m.key
	if q.dlKey != "" {
		key = q.dlKey
	}
	queues, err := q.b.route(q.dlx, key)
	if err != nil {
		return // RabbitMQ drops a message whose dead-letter exchange is missing
	}
	now := time.Now()
	out := m.out
	out.Headers = withDeath(out.Headers, q.death(m, reason, now))
	out.Expiration = ""
	for _, target := range queues {
		target.enqueue(newMemMessage(q.dlx, key, out, now))
	}
}

// death is the x-death entry of m dying in q for reason.
func (q *memQueue) death(m *memMessage, reason string, now time.Time) map[string]any {
	d := map[string]any{
		"count": int64(1), "reason": reason, "queue": q.name, "time": time.Unix(now.Unix(), 0),
		"exchange": m.exchange, "routing-keys": []any{m.key},
	}
	if m.out.Expiration != "" {
		d["original-expiration"] = m.out.Expiration
	}
	return d
}

// withDeath returns a copy of h with death recorded in x-death (see
// recordDeath) and, the first time, in x-first-death-reason, -queue and
// -exchange. h is not modified.
func withDeath(h map[string]any, death map[string]any) map[string]any {
	out := maps.Clone(h)
	if out == nil {
		out = map[string]any{}
	}
	out["x-death"] = recordDeath(out["x-death"], death)
	for _, f := range []string{"reason", "queue", "exchange"} {
		if _, ok := out["x-first-death-"+f]; !ok {
			out["x-first-death-"+f] = death[f]
		}
	}
	return out
}

// recordDeath returns a new x-death list: an earlier entry for the same
// queue and reason has its count raised and moves to the front; otherwise
// death is prepended.
func recordDeath(earlier any, death map[string]any) []any {
	list, _ := earlier.([]any)
	deaths := make([]any, 1, len(list)+1)
	for _, e := range list {
		if t, ok := e.(map[string]any); ok && t["queue"] == death["queue"] && t["reason"] == death["reason"] {
			death = maps.Clone(t)
			death["count"] = deathCount(t["count"]) + 1
			continue
		}
		deaths = append(deaths, e)
	}
	deaths[0] = death
	return deaths
}

// deathCount reads the count of an earlier x-death entry, sent as any
// integer width; 0 when it is not an integer.
func deathCount(v any) int64 {
	n, _ := normalizeArg(v).(int64)
	return n
}
