package memq

import (
	"fmt"
	"maps"
	"slices"
	"sync"
)

// Consume subscribes handler to queue, which must be declared. Deliveries
// come from one goroutine per subscription, in queue order; at most
// spec.Prefetch are unsettled at any time (0 = unlimited). The
// subscription closes with the connection.
func (c *Conn) Consume(queue string, spec ConsumeSpec, handler func(Delivery)) (*Subscription, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	if spec.Prefetch < 0 {
		return nil, fmt.Errorf("memory: prefetch must not be negative, got %d", spec.Prefetch)
	}
	s, err := c.b.subscribe(c, queue, spec, handler)
	if err != nil {
		return nil, err
	}
	if err := c.adopt(s); err != nil {
		return nil, err
	}
	return s, nil
}

// subscribe registers a subscription on queue for conn, which must be
// allowed to use it (an exclusive queue is its owner's only; nil is the
// broker itself), and starts its delivery loop.
func (b *Broker) subscribe(conn *Conn, queue string, spec ConsumeSpec, handler func(Delivery)) (*Subscription, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	q, err := b.consumable(conn, queue)
	if err == nil {
		err = b.checkConsumerArgs(q, spec)
	}
	if err != nil {
		return nil, err
	}
	s := &Subscription{
		q: q, spec: spec, handler: handler, unacked: map[uint64]*memMessage{},
		wake: make(chan struct{}, 1), done: make(chan struct{}),
	}
	if q.log != nil {
		s.cursor = q.log.start(spec.Args[ArgStreamOffset])
	}
	q.consumers = append(q.consumers, s)
	go s.loop()
	q.dispatch()
	return s, nil
}

// consumable returns queue if conn (nil: the broker itself) may consume it.
// Call with b.mu held.
func (b *Broker) consumable(conn *Conn, queue string) (*memQueue, error) {
	q, err := b.lookup(queue)
	if err == nil && conn != nil {
		err = b.access(conn, q)
	}
	if err != nil {
		return nil, err
	}
	return q, nil
}

// Subscription is one consumer of a queue. Its methods are safe for
// concurrent use; its fields are guarded by the broker's mutex.
type Subscription struct {
	conn      *Conn
	q         *memQueue
	spec      ConsumeSpec
	handler   func(Delivery)
	unacked   map[uint64]*memMessage
	pending   []Delivery // assigned, not yet handed to handler
	wake      chan struct{}
	done      chan struct{}
	cancelled bool
	closeOnce sync.Once
	cursor    int64 // a stream subscription's next offset

}

// priority is the subscription's x-priority consumer argument (default 0).
func (s *Subscription) priority() int64 {
	n, _ := normalizeArg(s.spec.Args["x-priority"]).(int64)
	return n
}

// hasRoom reports whether the subscription may take another message.
func (s *Subscription) hasRoom() bool {
	return !s.cancelled && (s.spec.Prefetch == 0 || len(s.unacked) < s.spec.Prefetch)
}

// assign gives m to the subscription. Call with b.mu held.
func (s *Subscription) assign(m *memMessage) {
	s.q.b.nextTag++
	tag := s.q.b.nextTag
	s.unacked[tag] = m
	s.pending = append(s.pending, s.q.deliveryOf(m, &acker{s: s, tag: tag}, false))
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// loop hands assigned deliveries to handler, one at a time, until cancelled.
func (s *Subscription) loop() {
	for {
		select {
		case <-s.wake:
		case <-s.done:
			return
		}
		for d, ok := s.nextPending(); ok; d, ok = s.nextPending() {
			s.handler(d)
		}
	}
}

func (s *Subscription) nextPending() (Delivery, bool) {
	b := s.q.b
	b.mu.Lock()
	defer b.mu.Unlock()
	if s.cancelled || len(s.pending) == 0 {
		return Delivery{}, false
	}
	d := s.pending[0]
	s.pending = s.pending[1:]
	return d, true
}

// Cancel stops new deliveries; messages assigned but not yet handed out go
// back to the queue marked redelivered, as those a broker had already sent
// would. Handed-out deliveries can still be settled. Idempotent.
func (s *Subscription) Cancel() error {
	b := s.q.b
	b.mu.Lock()
	defer b.mu.Unlock()
	s.cancelLocked()
	return nil
}

func (s *Subscription) cancelLocked() {
	if s.cancelled {
		return
	}
	s.cancelled = true
	close(s.done)
	s.q.removeConsumer(s)
	msgs := make([]*memMessage, 0, len(s.pending))
	for _, d := range s.pending {
		tag := d.Acker.(*acker).tag
		msgs = append(msgs, s.unacked[tag])
		delete(s.unacked, tag)
	}
	s.pending = nil
	s.q.giveBack(msgs) // on the wire already, from the broker's side
}

// Close cancels the subscription and returns its unsettled messages to the
// queue, marked redelivered; settling them afterwards fails. Idempotent.
func (s *Subscription) Close() error {
	s.closeOnce.Do(func() {
		b := s.q.b
		b.mu.Lock()
		s.cancelLocked()
		s.requeueUnacked()
		b.mu.Unlock()
		if s.conn != nil {
			s.conn.dropSub(s)
		}
	})
	return nil
}

// requeueUnacked returns every unsettled message to the queue, marked
// redelivered (see giveBack). Call with b.mu held.
func (s *Subscription) requeueUnacked() {
	tags := slices.Sorted(maps.Keys(s.unacked))
	msgs := make([]*memMessage, 0, len(tags))
	for _, tag := range tags {
		msgs = append(msgs, s.unacked[tag])
		delete(s.unacked, tag)
	}
	s.q.giveBack(msgs)
}

// acker settles one delivery of a subscription.
type acker struct {
	s   *Subscription
	tag uint64
}

// take removes the delivery from the unsettled set. Call with b.mu held.
func (a *acker) take() (*memMessage, error) {
	m, ok := a.s.unacked[a.tag]
	if !ok {
		return nil, a.s.q.b.errorf("406 PRECONDITION_FAILED - unknown delivery tag %d", a.tag)
	}
	delete(a.s.unacked, a.tag)
	return m, nil
}

// Ack settles the delivery.
func (a *acker) Ack() error {
	b := a.s.q.b
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, err := a.take(); err != nil {
		return err
	}
	a.s.q.dispatch()
	return nil
}

// Nack returns the delivery to its queue (requeue; see memQueue.returnNacked) or
// dead-letters it through the queue's x-dead-letter-exchange.
func (a *acker) Nack(requeue bool) error {
	b := a.s.q.b
	b.mu.Lock()
	defer b.mu.Unlock()
	if a.s.q.log != nil {
		return b.notOnStream("basic.nack and basic.reject", a.s.q.name)
	}
	m, err := a.take()
	if err != nil {
		return err
	}
	if requeue {
		a.s.q.returnNacked(m)
		return nil
	}
	a.s.q.deadLetter(m, deathRejected)
	a.s.q.dispatch()
	return nil
}
