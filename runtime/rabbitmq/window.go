package rabbitmq

import (
	"context"
	"fmt"
	"sync/atomic"
)

// window bounds the publishes waiting for a confirm (MaxOutstandingPublishes).
// Safe for concurrent use.
type window struct {
	slots   chan struct{}
	waiting atomic.Int64
	settled slotReleaser // the slots of pipelined publishes (PublishAsync)
}

func newWindow(n int) *window { return &window{slots: make(chan struct{}, n)} }

// acquire takes a slot, waiting as long as ctx allows.
func (w *window) acquire(ctx context.Context) error {
	select {
	case w.slots <- struct{}{}:
		return nil
	default:
	}
	n := w.waiting.Add(1)
	defer w.waiting.Add(-1)
	select {
	case w.slots <- struct{}{}:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("all %d MaxOutstandingPublishes slots hold unconfirmed messages and %d publishes are waiting for one: %w",
			cap(w.slots), max(n, w.waiting.Load()), ctx.Err())
	}
}

// release gives a slot back.
func (w *window) release() { <-w.slots }
