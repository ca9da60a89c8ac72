package acemq

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"
)

// Consume subscribes deliver to queue, which must be declared. Deliveries
// come from one goroutine per subscription, in queue order; at most
// spec.Prefetch are unsettled at any time (0 = unlimited).
func (t *memTransport) Consume(ctx context.Context, queue string, spec ConsumeSpec, deliver func(Delivery)) (Subscription, error) {
	if err := t.check(ctx); err != nil {
		return nil, err
	}
	if spec.Prefetch < 0 {
		return nil, fmt.Errorf("memory: prefetch must not be negative, got %d", spec.Prefetch)
	}
	s, err := t.b.subscribeAs(t, queue, spec, deliver)
	if err != nil {
		return nil, err
	}
	if err := t.adopt(s); err != nil {
		return nil, err
	}
	return s, nil
}

// adopt makes s one of the connection's subscriptions, closed with it.
func (t *memTransport) adopt(s *memSub) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		go s.Close()
		return errMemoryClosed
	}
	s.t = t
	t.subs[s] = struct{}{}
	return nil
}

// subscribe registers a subscription on queue and starts its delivery loop.
func (b *memBroker) subscribe(queue string, spec ConsumeSpec, deliver func(Delivery)) (*memSub, error) {
	return b.subscribeAs(nil, queue, spec, deliver)
}

// subscribeAs is subscribe for conn, which must be allowed to use queue (an
// exclusive queue is its owner's only); nil is the broker itself.
func (b *memBroker) subscribeAs(conn *memTransport, queue string, spec ConsumeSpec, deliver func(Delivery)) (*memSub, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	q, err := b.consumable(conn, queue)
	if err != nil {
		return nil, err
	}
	s := &memSub{
		q: q, spec: spec, deliver: deliver, unacked: map[uint64]*memMessage{},
		wake: make(chan struct{}, 1), done: make(chan struct{}),
	}
	q.consumers = append(q.consumers, s)
	go s.loop()
	q.dispatch()
	return s, nil
}

// consumable returns queue if conn (nil: the broker itself) may consume it;
// streams cannot be consumed here. Call with b.mu held.
func (b *memBroker) consumable(conn *memTransport, queue string) (*memQueue, error) {
	q, err := b.queue(queue)
	if err == nil && conn != nil {
		err = b.access(conn, q)
	}
	if err != nil {
		return nil, err
	}
	if argString(q.spec.Args[ArgQueueType]) == string(QueueStream) {
		return nil, b.errorf("this transport does not support streams; they are a RabbitMQ queue type and the in-memory transport has no equivalent")
	}
	return q, nil
}

// memSub is one subscription. Its fields are guarded by the broker's mutex.
type memSub struct {
	t         *memTransport
	q         *memQueue
	spec      ConsumeSpec
	deliver   func(Delivery)
	unacked   map[uint64]*memMessage
	pending   []Delivery // assigned, not yet handed to deliver
	wake      chan struct{}
	done      chan struct{}
	cancelled bool
	closeOnce sync.Once
}

// priority is the subscription's x-priority consumer argument (default 0).
func (s *memSub) priority() int64 {
	n, _ := normalizeArg(s.spec.Args["x-priority"]).(int64)
	return n
}

// hasRoom reports whether the subscription may take another message.
func (s *memSub) hasRoom() bool {
	return !s.cancelled && (s.spec.Prefetch == 0 || len(s.unacked) < s.spec.Prefetch)
}

// assign gives m to the subscription. Call with b.mu held.
func (s *memSub) assign(m *memMessage) {
	s.q.b.nextTag++
	tag := s.q.b.nextTag
	s.unacked[tag] = m
	s.pending = append(s.pending, s.q.deliveryOf(m, &memAcker{s: s, tag: tag}, false))
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// loop hands assigned deliveries to deliver, one at a time, until cancelled.
func (s *memSub) loop() {
	for {
		select {
		case <-s.wake:
		case <-s.done:
			return
		}
		for d, ok := s.nextPending(); ok; d, ok = s.nextPending() {
			s.deliver(d)
		}
	}
}

func (s *memSub) nextPending() (Delivery, bool) {
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
func (s *memSub) Cancel() error {
	b := s.q.b
	b.mu.Lock()
	defer b.mu.Unlock()
	s.cancelLocked()
	return nil
}

func (s *memSub) cancelLocked() {
	if s.cancelled {
		return
	}
	s.cancelled = true
	close(s.done)
	s.q.removeConsumer(s)
	msgs := make([]*memMessage, 0, len(s.pending))
	for _, d := range s.pending {
		tag := d.Acker.(*memAcker).tag
		msgs = append(msgs, s.unacked[tag])
		delete(s.unacked, tag)
	}
	s.pending = nil
	s.q.giveBack(msgs) // on the wire already, from the broker's side
}

// Close cancels the subscription and returns its unsettled messages to the
// queue, marked redelivered; settling them afterwards fails. Idempotent.
func (s *memSub) Close() error {
	s.closeOnce.Do(func() {
		b := s.q.b
		b.mu.Lock()
		s.cancelLocked()
		s.requeueUnacked()
		b.mu.Unlock()
		if s.t != nil {
			s.t.forget(s)
		}
	})
	return nil
}

// requeueUnacked returns every unsettled message to the queue, marked
// redelivered (see giveBack). Call with b.mu held.
func (s *memSub) requeueUnacked() {
	tags := slices.Sorted(maps.Keys(s.unacked))
	msgs := make([]*memMessage, 0, len(tags))
	for _, tag := range tags {
		msgs = append(msgs, s.unacked[tag])
		delete(s.unacked, tag)
	}
	s.q.giveBack(msgs)
}

// forget drops a closed subscription from the connection's set.
func (t *memTransport) forget(s *memSub) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.subs, s)
}

// memAcker settles one delivery of a subscription.
type memAcker struct {
	s   *memSub
	tag uint64
}

// take removes the delivery from the unsettled set. Call with b.mu held.
func (a *memAcker) take() (*memMessage, error) {
	m, ok := a.s.unacked[a.tag]
	if !ok {
		return nil, a.s.q.b.errorf("406 PRECONDITION_FAILED - unknown delivery tag %d", a.tag)
	}
	delete(a.s.unacked, a.tag)
	return m, nil
}

// Ack settles the delivery.
func (a *memAcker) Ack() error {
	b := a.s.q.b
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, err := a.take(); err != nil {
		return err
	}
	a.s.q.dispatch()
	return nil
}

// Nack returns the delivery to its queue (requeue; see memQueue.requeue) or
// dead-letters it through the queue's x-dead-letter-exchange.
func (a *memAcker) Nack(requeue bool) error {
	b := a.s.q.b
	b.mu.Lock()
	defer b.mu.Unlock()
	m, err := a.take()
	if err != nil {
		return err
	}
	if requeue {
		a.s.q.requeue(m)
		return nil
	}
	a.s.q.deadLetter(m, deathRejected)
	a.s.q.dispatch()
	return nil
}
