package acemq

import (
	"context"

	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// QueueExists reports whether queue exists on the broker, creating nothing,
// when the transport can tell (QueueChecker). Safe for concurrent use.
func (c *Conn) QueueExists(ctx context.Context, queue string) (bool, error) {
	qc, err := openTransportAs[driver.QueueChecker](c, "look for a queue")
	if err != nil {
		return false, err
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
	qd, err := openTransportAs[driver.QueueDeleter](c, "delete a queue")
	if err != nil {
		return err
	}
	if err := qd.DeleteQueue(ctx, queue); err != nil {
		return wrapf(err, "acemq: cannot delete queue %q", queue)
	}
	c.declared.forgetQueue(queue)
	return nil
}
