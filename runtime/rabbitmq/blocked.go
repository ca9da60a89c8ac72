package rabbitmq

import (
	"context"
	"fmt"

	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

// blockState is a block the broker put on the live connection (a memory or
// disk alarm). lifted is closed when the block ends or the connection goes.
type blockState struct {
	reason string
	lifted chan struct{}
}

// watchBlocks follows conn's connection.blocked and connection.unblocked
// notifications until conn closes.
func (t *Transport) watchBlocks(conn *amqp.Connection, blocks <-chan amqp.Blocking) {
	defer t.wg.Done()
	for b := range blocks {
		if !t.setBlocked(conn, b) {
			continue
		}
		if b.Active {
			t.emit(RecoveryEvent{Kind: RecoveryBlocked, Reason: b.Reason, Err: &acemq.ConnectionBlockedError{Reason: b.Reason}})
		} else {
			t.emit(RecoveryEvent{Kind: RecoveryUnblocked})
		}
	}
}

// setBlocked records b for conn if conn is the live connection and b
// changes its state; it reports whether it did.
func (t *Transport) setBlocked(conn *amqp.Connection, b amqp.Blocking) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.conn != conn || b.Active == (t.block != nil) {
		return false
	}
	if b.Active {
		t.block = &blockState{reason: b.Reason, lifted: make(chan struct{})}
		return true
	}
	t.clearBlockLocked()
	return true
}

// clearBlockLocked lifts the block, waking publishes that wait on it. The
// caller holds t.mu.
func (t *Transport) clearBlockLocked() {
	if t.block != nil {
		close(t.block.lifted)
		t.block = nil
	}
}

// Blocked reports whether the broker blocks the live connection now, with
// the broker's reason (driver.BlockedReporter). A new connection after
// recovery starts unblocked. Safe for concurrent use; never blocks.
func (t *Transport) Blocked() (reason string, blocked bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.block == nil {
		return "", false
	}
	return t.block.reason, true
}

func (t *Transport) currentBlock() *blockState {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.block
}

// waitUnblocked returns once the connection is not blocked; when ctx ends
// first it returns an *acemq.PublishingPausedError.
func (t *Transport) waitUnblocked(ctx context.Context) error {
	return t.waitLifted(ctx, func(reason string, err error) error {
		return &acemq.PublishingPausedError{Reason: reason, Err: err}
	})
}

// waitToDeclare returns once the connection is not blocked (a blocked
// connection answers nothing, declarations included); when ctx ends first it
// returns the broker's reason with ctx's error.
func (t *Transport) waitToDeclare(ctx context.Context) error {
	return t.waitLifted(ctx, func(reason string, err error) error {
		return fmt.Errorf("%w: %w", &acemq.ConnectionBlockedError{Reason: reason}, err)
	})
}

// waitLifted waits while the connection is blocked; when ctx ends first it
// returns blockedErr(the broker's reason, ctx's error).
func (t *Transport) waitLifted(ctx context.Context, blockedErr func(reason string, err error) error) error {
	for {
		b := t.currentBlock()
		if b == nil {
			return nil
		}
		select {
		case <-b.lifted:
		case <-t.done:
			return ErrClosed
		case <-ctx.Done():
			return blockedErr(b.reason, ctx.Err())
		}
	}
}

// pausedOr returns err, or an *acemq.PublishingPausedError wrapping it when
// the connection is blocked: a publish that timed out on a blocked
// connection says why.
func (t *Transport) pausedOr(err error) error {
	if reason, blocked := t.Blocked(); blocked {
		return &acemq.PublishingPausedError{Reason: reason, Err: err}
	}
	return err
}
