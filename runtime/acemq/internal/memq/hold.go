package memq

// Hold takes messages of one queue one at a time, unsettled, as basic.get
// without auto-ack does on a channel of its own: what it has not settled
// returns to the queue when it closes, or when its connection does. Safe for
// concurrent use.
type Hold struct {
	s *Subscription // never a consumer of the queue: only its unsettled set
}

// Hold opens a hold on queue, which must exist and be this connection's to use.
func (c *Conn) Hold(queue string) (*Hold, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	c.b.mu.Lock()
	q, err := c.b.queueFor(c, queue)
	c.b.mu.Unlock()
	if err != nil {
		return nil, err
	}
	s := &Subscription{q: q, unacked: map[uint64]*memMessage{}, cancelled: true}
	if err := c.adopt(s); err != nil {
		return nil, err
	}
	return &Hold{s: s}, nil
}

// Next takes the next ready message, unsettled; ok is false when none is
// ready. It fails once the hold is closed or the queue is gone.
func (h *Hold) Next() (Delivery, bool, error) {
	b := h.s.q.b
	b.mu.Lock()
	defer b.mu.Unlock()
	if h.s.unacked == nil {
		return Delivery{}, false, b.errorf("the hold on queue %q is closed", h.s.q.name)
	}
	if q, err := b.lookup(h.s.q.name); err != nil || q != h.s.q {
		return Delivery{}, false, b.errorf("404 NOT_FOUND - no queue '%s'", h.s.q.name)
	}
	q := h.s.q
	m := q.takeHead()
	if m == nil {
		return Delivery{}, false, nil
	}
	b.nextTag++
	h.s.unacked[b.nextTag] = m
	return q.deliveryOf(m, &acker{s: h.s, tag: b.nextTag}, true), true, nil
}

// Close returns every unsettled message to the queue, in its place.
// Idempotent.
func (h *Hold) Close() error {
	h.s.closeOnce.Do(func() {
		b := h.s.q.b
		b.mu.Lock()
		h.s.requeueUnacked()
		h.s.unacked = nil
		b.mu.Unlock()
		if h.s.conn != nil {
			h.s.conn.dropSub(h.s)
		}
	})
	return nil
}
