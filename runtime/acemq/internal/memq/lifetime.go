package memq

import (
	"slices"
	"time"
)

// deleteQueue removes q and its bindings, as the broker does with an
// auto-delete queue once its last consumer is gone, an exclusive queue with
// its connection and a queue unused for its x-expires. An auto-delete
// exchange that loses its last binding goes too. Call with b.mu held.
func (b *Broker) deleteQueue(q *memQueue) {
	if b.queues[q.name] != q {
		return
	}
	delete(b.queues, q.name)
	if q.idle != nil {
		q.idle.Stop()
	}
	for name, x := range b.exchanges {
		n := len(x.bindings)
		x.bindings = slices.DeleteFunc(x.bindings, func(bd memBinding) bool { return bd.queue == q.name })
		if x.spec.AutoDelete && n > 0 && len(x.bindings) == 0 {
			delete(b.exchanges, name)
		}
	}
}

// checkReplicated refuses the settings a quorum or stream queue cannot
// have, in RabbitMQ's words.
func (b *Broker) checkReplicated(name string, spec QueueSpec) error {
	switch argString(spec.Args[ArgQueueType]) {
	case QueueQuorum, QueueStream:
	default:
		return nil
	}
	checks := []struct {
		property string
		bad      bool
	}{{"exclusive-owner", spec.Exclusive}, {"non-durable", !spec.Durable}, {"auto-delete", spec.AutoDelete}}
	for _, c := range checks {
		if c.bad {
			return b.errorf("406 PRECONDITION_FAILED - invalid property '%s' for queue '%s'", c.property, name)
		}
	}
	return nil
}

// readExpires reads x-expires, which must be a positive whole number of
// milliseconds.
func (b *Broker) readExpires(name string, args map[string]any) (time.Duration, error) {
	v, ok := args["x-expires"]
	if !ok {
		return 0, nil
	}
	ms, isInt := normalizeArg(v).(int64)
	if !isInt || ms <= 0 {
		return 0, b.invalidArg("x-expires", name, v)
	}
	return time.Duration(ms) * time.Millisecond, nil
}

// touch records a use of q (a declaration, a pull, its last consumer
// leaving) and arms its x-expires check. Call with b.mu held.
func (q *memQueue) touch() {
	if q.expires <= 0 {
		return
	}
	q.used = time.Now()
	if q.idle == nil {
		q.idle = time.AfterFunc(q.expires, q.checkIdle)
	}
}

// checkIdle deletes q once it has gone unused, without consumers, for its
// x-expires; otherwise it checks again when that could next be so.
func (q *memQueue) checkIdle() {
	q.b.mu.Lock()
	defer q.b.mu.Unlock()
	q.idle = nil
	if q.b.queues[q.name] != q || len(q.consumers) > 0 {
		return // deleted already, or in use: the last consumer to leave touches q again
	}
	if left := q.expires - time.Since(q.used); left > 0 {
		q.idle = time.AfterFunc(left, q.checkIdle)
		return
	}
	q.b.deleteQueue(q)
}
