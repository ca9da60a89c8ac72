package driver

import "context"

// BlockedReporter is an optional Transport seam: a transport whose broker
// can block the connection (RabbitMQ does when a memory or disk alarm is
// raised) reports it, so Health answers at once instead of probing a broker
// that stopped reading. Blocked returns the broker's reason and whether the
// connection is blocked now. Implementations must be safe for concurrent use
// and must not block.
type BlockedReporter interface {
	Blocked() (reason string, blocked bool)
}

// Holder is an optional Transport seam: a transport that can take messages
// off a queue one at a time and hold them unsettled until each is acked or
// nacked, or the hold is closed (basic.get without auto-ack on a channel of
// its own, on RabbitMQ; memory:// and the RabbitMQ transport implement it).
// It is how tools move messages without losing any: what they have not
// settled goes back to the queue when the hold ends, however it ends.
// Implementations must be safe for concurrent use.
type Holder interface {
	// Hold opens a hold on queue, which must exist.
	Hold(ctx context.Context, queue string) (HeldQueue, error)
}

// HeldQueue is one hold on a queue (see Holder). Next and Close may be
// called from different goroutines; a delivery's Ack and Nack settle it.
type HeldQueue interface {
	// Next takes the next ready message, unsettled; ok is false when the
	// queue has nothing ready to hand over.
	Next(ctx context.Context) (d Delivery, ok bool, err error)
	// Close returns every message still unsettled to the queue, in its
	// place (a classic queue keeps publish order). Idempotent.
	Close() error
}

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

// QueueInspector is an optional Transport seam: a transport that can count
// the messages ready in a queue implements it (memory:// does).
type QueueInspector interface {
	// MessageCount returns how many messages of queue are ready for
	// delivery, not counting those delivered and unsettled.
	MessageCount(ctx context.Context, queue string) (int, error)
}

// Puller is an optional Transport seam: a transport that can take one message
// off a queue without a subscription implements it (memory:// does). The
// message is settled as it is taken (auto-acknowledged).
type Puller interface {
	// Pull takes the next ready message of queue; ok is false when the
	// queue is empty.
	Pull(ctx context.Context, queue string) (d Delivery, ok bool, err error)
}

// HeadersReleaser is an optional Transport seam: a transport whose Publish
// keeps nothing of msg.Headers once it returns (it writes or copies the
// table during the call), so that a publisher may fill the same map for its
// next message instead of making one per message. memory:// and the
// RabbitMQ transport implement it; a transport that records what it is
// given must not. It covers Publish, and PublishAsync from when its
// Confirmation's Wait has returned anything but ErrOutcomeUnknown (the
// outcome is final, nothing is written again); never the Body.
// Implementations must be safe for concurrent use.
type HeadersReleaser interface {
	// ReleasesHeaders reports that Publish does not keep msg.Headers.
	ReleasesHeaders() bool
}
