package memq

import "time"

// readTTL reads x-message-ttl, a whole number of milliseconds from 0.
func (b *Broker) readTTL(name string, args map[string]any) (time.Duration, bool, error) {
	v, ok := args[ArgMessageTTL]
	if !ok {
		return 0, false, nil
	}
	ms, isInt := normalizeArg(v).(int64)
	if !isInt || ms < 0 {
		return 0, false, b.invalidArg(ArgMessageTTL, name, v)
	}
	return time.Duration(ms) * time.Millisecond, true, nil
}

// applyTTL sets m's expiry to the sooner of its own and the queue's
// x-message-ttl, counted from now.
func (q *memQueue) applyTTL(m *memMessage, now time.Time) {
	if !q.hasTTL {
		return
	}
	if exp := now.Add(q.ttl); m.expireAt.IsZero() || exp.Before(m.expireAt) {
		m.expireAt = exp
	}
}

// expiredAt reports whether m's time is up at now.
func (m *memMessage) expiredAt(now time.Time) bool {
	return !m.expireAt.IsZero() && !now.Before(m.expireAt)
}

// deliverOrExpire hands m, whose time is up on arrival, to a consumer that
// can take it at once (only when nothing waits before it), and expires it
// otherwise, as RabbitMQ does with a TTL of 0. Call with b.mu held.
func (q *memQueue) deliverOrExpire(m *memMessage) {
	q.dispatch()
	if len(q.ready) == 0 {
		if s := q.pickConsumer(); s != nil {
			s.assign(m)
			return
		}
	}
	q.deadLetter(m, deathExpired)
}

// armExpiry schedules a look at the queue when m's time is up.
func (q *memQueue) armExpiry(m *memMessage) {
	if m.expireAt.IsZero() {
		return
	}
	time.AfterFunc(time.Until(m.expireAt), func() {
		q.b.mu.Lock()
		defer q.b.mu.Unlock()
		q.expire(time.Now())
		q.dispatch()
	})
}

// expire dead-letters the messages at the head of the queue whose time is
// up. Like RabbitMQ, it looks at the head only: a message that expires
// behind one that has not waits until it reaches the head. Call with b.mu
// held.
func (q *memQueue) expire(now time.Time) {
	if !q.timed {
		return
	}
	for len(q.ready) > 0 && q.ready[0].expiredAt(now) {
		m := q.ready[0]
		q.ready[0] = nil
		q.ready = q.ready[1:]
		q.deadLetter(m, deathExpired)
	}
}
