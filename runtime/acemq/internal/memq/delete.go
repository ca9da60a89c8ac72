package memq

import (
	"slices"
	"strings"
)

// QueueExists reports whether the broker has a queue called name, without
// touching it: like a passive declare, it neither creates the queue nor
// counts as a use for x-expires. Another connection's exclusive queue
// exists.
func (c *Conn) QueueExists(name string) (bool, error) {
	if err := c.check(); err != nil {
		return false, err
	}
	c.b.mu.Lock()
	defer c.b.mu.Unlock()
	_, ok := c.b.queues[name]
	return ok, nil
}

// DeleteQueue deletes name with its messages and bindings, cancelling its
// consumers (their OnCancel is called), as RabbitMQ's queue.delete does. A queue that does not exist
// is no error; another connection's exclusive queue is RESOURCE_LOCKED.
func (c *Conn) DeleteQueue(name string) error {
	if err := c.check(); err != nil {
		return err
	}
	return c.b.deleteQueueNamed(c, name)
}

// deleteQueueNamed deletes the queue called name for conn.
func (b *Broker) deleteQueueNamed(conn *Conn, name string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	q, ok := b.queues[name]
	if !ok {
		return nil
	}
	if err := b.access(conn, q); err != nil {
		return err
	}
	b.deleteQueue(q)
	for _, s := range slices.Clone(q.consumers) {
		s.dropPending()
		s.cancelLocked()
		if s.spec.OnCancel != nil {
			go s.spec.OnCancel()
		}
	}
	return nil
}

// dropPending forgets the messages assigned to s but not yet handed out:
// they go with their deleted queue. Call with b.mu held.
func (s *Subscription) dropPending() {
	for _, d := range s.pending {
		delete(s.unacked, d.Acker.(*acker).tag)
	}
	s.pending = nil
}

// DeleteExchange deletes the exchange called name with its bindings, as
// RabbitMQ's exchange.delete does: the queues stay, unbound from it. An
// exchange that does not exist is no error; the amq.* exchanges cannot be
// deleted (ACCESS_REFUSED).
func (c *Conn) DeleteExchange(name string) error {
	if err := c.check(); err != nil {
		return err
	}
	if name == "" || strings.HasPrefix(name, reservedPrefix) {
		return c.b.errorf("403 ACCESS_REFUSED - exchange %q cannot be deleted", name)
	}
	c.b.mu.Lock()
	defer c.b.mu.Unlock()
	delete(c.b.exchanges, name)
	return nil
}
