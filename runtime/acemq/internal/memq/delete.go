package acemq

import (
	"context"
	"slices"
)

// QueueExists reports whether the broker has a queue called name
// (QueueChecker), without touching it: like a passive declare, it neither
// creates the queue nor counts as a use for x-expires. Another connection's
// exclusive queue exists.
func (t *memTransport) QueueExists(ctx context.Context, name string) (bool, error) {
	if err := t.check(ctx); err != nil {
		return false, err
	}
	t.b.mu.Lock()
	defer t.b.mu.Unlock()
	_, ok := t.b.queues[name]
	return ok, nil
}

// DeleteQueue deletes name with its messages and bindings, cancelling its
// consumers, as RabbitMQ's queue.delete does (QueueDeleter). A queue that
// does not exist is no error; another connection's exclusive queue is
// RESOURCE_LOCKED.
func (t *memTransport) DeleteQueue(ctx context.Context, name string) error {
	if err := t.check(ctx); err != nil {
		return err
	}
	return t.b.deleteQueueNamed(t, name)
}

// deleteQueueNamed deletes the queue called name for conn.
func (b *memBroker) deleteQueueNamed(conn *memTransport, name string) error {
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
	}
	return nil
}

// dropPending forgets the messages assigned to s but not yet handed out:
// they go with their deleted queue. Call with b.mu held.
func (s *memSub) dropPending() {
	for _, d := range s.pending {
		delete(s.unacked, d.Acker.(*memAcker).tag)
	}
	s.pending = nil
}
