package acemq

import (
	"context"
	"fmt"
)

// QueueChecker is an optional Transport seam: a transport that can tell
// whether a queue exists without creating it (a passive declare on
// RabbitMQ; memory:// and the RabbitMQ transport implement it).
// Implementations must be safe for concurrent use.
type QueueChecker interface {
	// QueueExists reports whether the broker has a queue called name; a
	// queue that exists but is another connection's exclusive queue counts.
	QueueExists(ctx context.Context, name string) (bool, error)
}

// QueueDeleter is an optional Transport seam: a transport that can delete a
// queue (memory:// and the RabbitMQ transport implement it).
// Implementations must be safe for concurrent use.
type QueueDeleter interface {
	// DeleteQueue deletes name with every message on it and cancels its
	// consumers; deleting a queue that does not exist succeeds.
	DeleteQueue(ctx context.Context, name string) error
}

// QueueExists reports whether queue exists on the broker, creating nothing,
// when the transport can tell (QueueChecker). Safe for concurrent use.
func (c *Conn) QueueExists(ctx context.Context, queue string) (bool, error) {
	qc, ok := c.transport.(QueueChecker)
	if !ok {
		return false, fmt.Errorf("acemq: a %T cannot look for a queue", c.transport)
	}
	if c.isClosed() {
		return false, ErrClosed
	}
	exists, err := qc.QueueExists(ctx, queue)
	if err != nil {
		return false, wrapf(err, "acemq: cannot look for queue %q", queue)
	}
	return exists, nil
}

// DeleteQueue deletes queue and every message still on it, cancelling its
// consumers, when the transport can (QueueDeleter). Deleting a queue that
// does not exist succeeds. It is for tests and tools: the messages go with
// the queue. Safe for concurrent use.
func (c *Conn) DeleteQueue(ctx context.Context, queue string) error {
	qd, ok := c.transport.(QueueDeleter)
	if !ok {
		return fmt.Errorf("acemq: a %T cannot delete a queue", c.transport)
	}
	if c.isClosed() {
		return ErrClosed
	}
	if err := qd.DeleteQueue(ctx, queue); err != nil {
		return wrapf(err, "acemq: cannot delete queue %q", queue)
	}
	c.declared.forgetQueue(queue)
	return nil
}
