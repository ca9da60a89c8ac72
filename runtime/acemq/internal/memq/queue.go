package memq

import (
	"cmp"
	"slices"
	"time"
)

// memQueue is a declared queue: its ready messages, in order, and the
// subscriptions competing for them (served round-robin, or only the oldest
// with x-single-active-consumer).
type memQueue struct {
	b             *Broker
	name          string
	spec          QueueSpec
	ttl           time.Duration // x-message-ttl, when hasTTL
	hasTTL        bool
	dlx           string // x-dead-letter-exchange
	dlKey         string // x-dead-letter-routing-key; "" keeps the message's key
	hasDLX        bool
	limits        memLimits
	rejecting     bool          // a full quorum queue refusing publishes (see refuses)
	singleActive  bool          // x-single-active-consumer
	deliveryLimit int64         // a quorum queue's x-delivery-limit; -1 = none
	owner         *Conn         // the connection an exclusive queue belongs to
	quorum        bool          // x-queue-type quorum: redeliveries carry x-delivery-count
	seq           uint64        // the sequence number of the last message enqueued
	expires       time.Duration // x-expires: deleted once unused this long; 0 = never
	used          time.Time     // last use that x-expires counts from
	idle          *time.Timer   // checks x-expires
	timed         bool          // some message ever had an expiry: expire has work to do
	ready         []*memMessage
	log           *memStream // the records of a stream queue; nil for other types
	consumers     []*Subscription
	next          int
}

func newMemQueue(b *Broker, name string, spec QueueSpec) (*memQueue, error) {
	q := &memQueue{b: b, name: name, spec: spec}
	q.readDeadLettering(spec.Args)
	q.quorum = argString(spec.Args[ArgQueueType]) == QueueQuorum
	q.singleActive = normalizeArg(spec.Args["x-single-active-consumer"]) == true
	if err := b.checkReplicated(name, spec); err != nil {
		return nil, err
	}
	var err error
	if q.ttl, q.hasTTL, err = b.readTTL(name, spec.Args); err != nil {
		return nil, err
	}
	if q.limits, err = b.readLimits(name, spec.Args); err != nil {
		return nil, err
	}
	if q.deliveryLimit, err = b.readDeliveryLimit(name, spec.Args); err != nil {
		return nil, err
	}
	if err = b.checkClusterArgs(name, spec.Args); err != nil {
		return nil, err
	}
	if argString(spec.Args[ArgQueueType]) == QueueStream {
		if q.log, err = b.newMemStream(name, spec.Args, q.limits); err != nil {
			return nil, err
		}
	}
	q.expires, err = b.readExpires(name, spec.Args)
	return q, err
}

// readDeadLettering reads x-dead-letter-exchange and -routing-key.
func (q *memQueue) readDeadLettering(args map[string]any) {
	if v, ok := args[ArgDeadLetterExchange]; ok {
		q.dlx, q.hasDLX = argString(v), true
	}
	if v, ok := args[ArgDeadLetterRoutingKey]; ok {
		q.dlKey = argString(v)
	}
}

func argString(v any) string {
	if s, ok := normalizeArg(v).(string); ok {
		return s
	}
	return ""
}

// enqueue appends m, arms its expiry and hands out what can be handed out;
// a message whose time is already up (a TTL of 0) goes straight to a
// consumer that can take it, or expires. Call with b.mu held.
func (q *memQueue) enqueue(m *memMessage) {
	now := time.Now()
	q.applyTTL(m, now)
	q.seq++
	m.seq = q.seq
	if m.expiredAt(now) {
		q.deliverOrExpire(m)
		return
	}
	q.ready = append(q.ready, m)
	q.timed = q.timed || !m.expireAt.IsZero()
	q.armExpiry(m)
	q.dispatch()
	q.dropHeads()
}

// returnNacked returns m, nacked with requeue, to the queue, marked redelivered
// and counted as a return: a classic queue puts it back in publish order, a
// quorum queue at the back, as RabbitMQ 3.10 does. Call with b.mu held.
func (q *memQueue) returnNacked(m *memMessage) {
	switch {
	case !q.markReturned(m):
	case q.quorum:
		q.ready = append(q.ready, m)
	default:
		q.putBack(m)
	}
	q.dispatch()
}

// markReturned marks m redelivered and counts the return; when that passes
// the queue's delivery limit it dead-letters m and reports false. Call with
// b.mu held.
func (q *memQueue) markReturned(m *memMessage) bool {
	m.redelivered = true
	m.returns++
	if q.overDeliveryLimit(m) {
		q.deadLetter(m, deathDeliveryLimit)
		return false
	}
	return true
}

// takeHead takes the next ready message, after the queue's expired head
// messages are dead-lettered; nil when none is ready. It counts as a use of
// the queue. Call with b.mu held.
func (q *memQueue) takeHead() *memMessage {
	q.touch()
	q.expire(time.Now())
	if len(q.ready) == 0 {
		return nil
	}
	m := q.ready[0]
	q.ready = q.ready[1:]
	return m
}

// giveBack returns the messages a departing subscription held, in tag order,
// marked redelivered and counted as a return: a classic queue puts them back
// in publish order, a quorum queue ahead of every ready message. Call with
// b.mu held.
func (q *memQueue) giveBack(msgs []*memMessage) {
	if q.log != nil { // a stream keeps every record: nothing to give back
		q.dispatch()
		return
	}
	var front []*memMessage
	for _, m := range msgs {
		switch {
		case !q.markReturned(m):
		case q.quorum:
			front = append(front, m)
		default:
			q.putBack(m)
		}
	}
	q.ready = append(front, q.ready...)
	q.dispatch()
}

// putBack inserts m among the ready messages in publish order.
func (q *memQueue) putBack(m *memMessage) {
	i, _ := slices.BinarySearchFunc(q.ready, m.seq, func(r *memMessage, seq uint64) int {
		return cmp.Compare(r.seq, seq)
	})
	q.ready = slices.Insert(q.ready, i, m)
}

// deliveryOf renders m for a consumer: a quorum queue adds x-delivery-count
// once the message has been returned (always, when taken by a pull).
func (q *memQueue) deliveryOf(m *memMessage, acker Acker, pulled bool) Delivery {
	d := m.delivery(acker)
	if q.quorum && (m.returns > 0 || pulled) {
		if d.Headers == nil {
			d.Headers = map[string]any{}
		}
		d.Headers["x-delivery-count"] = m.returns
	}
	return d
}

// dispatch hands ready messages to subscriptions with room under their
// prefetch, round-robin. Call with b.mu held.
func (q *memQueue) dispatch() {
	if q.log != nil {
		q.dispatchStream()
		return
	}
	q.expire(time.Now())
	for len(q.ready) > 0 {
		s := q.pickConsumer()
		if s == nil {
			return
		}
		m := q.ready[0]
		q.ready[0] = nil
		q.ready = q.ready[1:]
		s.assign(m)
	}
}

// pickConsumer returns the next subscription with room, or nil: the one of
// highest x-priority, round-robin among equals. A single-active-consumer
// queue serves its oldest subscription only.
func (q *memQueue) pickConsumer() *Subscription {
	if q.singleActive {
		if len(q.consumers) > 0 && q.consumers[0].hasRoom() {
			return q.consumers[0]
		}
		return nil
	}
	n, best, at := len(q.consumers), (*Subscription)(nil), 0
	for i := range n {
		s := q.consumers[(q.next+i)%n]
		if s.hasRoom() && (best == nil || s.priority() > best.priority()) {
			best, at = s, (q.next+i)%n
		}
	}
	if best != nil {
		q.next = (at + 1) % n
	}
	return best
}

// removeConsumer stops handing messages to s. Call with b.mu held.
func (q *memQueue) removeConsumer(s *Subscription) {
	q.consumers = slices.DeleteFunc(q.consumers, func(c *Subscription) bool { return c == s })
	q.next = 0
	if len(q.consumers) > 0 {
		return
	}
	if q.spec.AutoDelete {
		q.b.deleteQueue(q)
		return
	}
	q.touch()
}
