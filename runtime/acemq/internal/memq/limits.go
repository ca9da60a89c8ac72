package memq

import (
	"slices"
	"time"
)

// Overflow behaviours of a queue with x-max-length or x-max-length-bytes, in
// RabbitMQ's words (x-overflow).
const (
	overflowDropHead     = "drop-head"
	overflowReject       = "reject-publish"
	overflowRejectAndDLX = "reject-publish-dlx"
)

// memLimits is a queue's length limits; -1 is no limit.
type memLimits struct {
	maxLen   int64
	maxBytes int64
	overflow string
}

// readLimits reads x-max-length, x-max-length-bytes and x-overflow,
// refusing values RabbitMQ refuses.
func (b *Broker) readLimits(name string, args map[string]any) (memLimits, error) {
	l := memLimits{maxLen: -1, maxBytes: -1, overflow: overflowDropHead}
	for arg, dst := range map[string]*int64{"x-max-length": &l.maxLen, "x-max-length-bytes": &l.maxBytes} {
		v, ok := args[arg]
		if !ok {
			continue
		}
		n, isInt := normalizeArg(v).(int64)
		if !isInt || n < 0 {
			return l, b.invalidArg(arg, name, v)
		}
		*dst = n
	}
	if v, ok := args["x-overflow"]; ok {
		switch s, _ := normalizeArg(v).(string); s {
		case overflowDropHead, overflowReject, overflowRejectAndDLX:
			l.overflow = s
		default:
			return l, b.invalidArg("x-overflow", name, v)
		}
	}
	return l, nil
}

// invalidArg is RabbitMQ's refusal of an argument value.
func (b *Broker) invalidArg(arg, queue string, v any) error {
	return b.errorf("406 PRECONDITION_FAILED - invalid arg '%s' for queue '%s': %v", arg, queue, v)
}

// over reports whether a ready list of n messages and size bytes breaks a limit.
func (l memLimits) over(n, size int64) bool {
	return (l.maxLen >= 0 && n > l.maxLen) || (l.maxBytes >= 0 && size > l.maxBytes)
}

// readyBytes is the body size of the ready messages; 0 when the queue has
// no byte limit, so a queue without one never walks its backlog.
func (q *memQueue) readyBytes() int64 {
	var n int64
	if q.limits.maxBytes < 0 {
		return 0
	}
	for _, m := range q.ready {
		n += int64(len(m.out.Body))
	}
	return n
}

// offer enqueues m, a message routed to q, unless the queue is full and
// refuses publishes (reject-publish, or reject-publish-dlx, which also
// dead-letters m); it reports whether q took m. Call with b.mu held.
func (q *memQueue) offer(m *memMessage) bool {
	if q.log != nil {
		q.log.append(m, time.Now())
		q.dispatch()
		return true
	}
	if q.refuses(m) {
		if q.limits.overflow == overflowRejectAndDLX {
			q.deadLetter(m, deathMaxLen)
		}
		return false
	}
	q.enqueue(m)
	if q.quorum && q.limits.overflow != overflowDropHead {
		q.rejecting = q.rejecting || q.limits.over(int64(len(q.ready)), q.readyBytes())
	}
	return true
}

// refuses reports whether a reject-publish queue turns m away. A classic
// queue refuses a message that would take it over a limit. A quorum queue
// takes the message that goes over, then refuses publishes until it is back
// to 80% of its limits, as RabbitMQ's quorum queues do.
func (q *memQueue) refuses(m *memMessage) bool {
	if q.limits.overflow == overflowDropHead {
		return false
	}
	n, size := int64(len(q.ready)), q.readyBytes()
	switch {
	case !q.quorum:
		return q.limits.over(n+1, size+int64(len(m.out.Body)))
	case q.rejecting && q.limits.belowSoft(n, size):
		q.rejecting = false
	}
	return q.rejecting
}

// belowSoft reports whether n messages of size bytes are at most 80% of the
// limits, where a quorum queue starts taking publishes again.
func (l memLimits) belowSoft(n, size int64) bool {
	return (l.maxLen < 0 || n <= l.maxLen*8/10) && (l.maxBytes < 0 || size <= l.maxBytes*8/10)
}

// dropHeads dead-letters the oldest ready messages while a drop-head queue
// is over its limits. Call with b.mu held.
func (q *memQueue) dropHeads() {
	if q.limits.overflow != overflowDropHead {
		return
	}
	for len(q.ready) > 0 && q.limits.over(int64(len(q.ready)), q.readyBytes()) {
		m := q.ready[0]
		q.ready[0] = nil
		q.ready = q.ready[1:]
		q.deadLetter(m, deathMaxLen)
	}
}

// readDeliveryLimit reads a quorum queue's x-delivery-limit (-1: none; other
// queue types ignore it, as RabbitMQ's classic queues do).
func (b *Broker) readDeliveryLimit(name string, args map[string]any) (int64, error) {
	v, ok := args["x-delivery-limit"]
	if !ok || argString(args[ArgQueueType]) != QueueQuorum {
		return -1, nil
	}
	n, isInt := normalizeArg(v).(int64)
	if !isInt || n < 0 {
		return -1, b.invalidArg("x-delivery-limit", name, v)
	}
	return n, nil
}

// overDeliveryLimit reports whether m has been returned more often than
// the queue's x-delivery-limit allows: it is dead-lettered instead.
func (q *memQueue) overDeliveryLimit(m *memMessage) bool {
	return q.deliveryLimit >= 0 && m.returns > q.deliveryLimit
}

// checkClusterArgs refuses the values RabbitMQ refuses of the arguments that
// only matter on a cluster, which a single in-process broker accepts and
// otherwise ignores: x-queue-leader-locator (client-local or balanced;
// there is one node to lead) and x-dead-letter-strategy (at-most-once or
// at-least-once; dead-lettering here is synchronous, so it never loses a
// message either way).
func (b *Broker) checkClusterArgs(name string, args map[string]any) error {
	for arg, allowed := range map[string][]string{
		"x-queue-leader-locator": {"client-local", "balanced"},
		"x-dead-letter-strategy": {"at-most-once", "at-least-once"},
	} {
		v, ok := args[arg]
		if ok && !slices.Contains(allowed, argString(v)) {
			return b.invalidArg(arg, name, v)
		}
	}
	return nil
}
