package rabbitmq

import (
	"context"
	"errors"
	"fmt"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"
)

// watch waits for conn to close; unless the transport is closing, it starts
// recovery.
func (t *Transport) watch(conn *amqp.Connection, closes chan *amqp.Error) {
	defer t.wg.Done()
	amqpErr, _ := <-closes
	if !t.markDown(conn) {
		return
	}
	err := t.lossCause(amqpErr)
	t.emit(RecoveryEvent{Kind: RecoveryLost, Err: err})
	if t.cfg.recovery == recoveryOff {
		t.giveUp(err)
		return
	}
	t.recover()
}

// giveUp leaves the transport down for good (WithoutRecovery): waiting and
// later calls fail with the reason.
func (t *Transport) giveUp(cause error) {
	if cause == nil {
		cause = errors.New("the connection closed")
	}
	t.mu.Lock()
	t.gaveUp = fmt.Errorf("the connection to RabbitMQ was lost and recovery is off (rabbitmq.WithoutRecovery): %w", cause)
	close(t.ready)
	t.mu.Unlock()
	t.emit(RecoveryEvent{Kind: RecoveryGaveUp, Err: cause})
}

// recover redials with a doubling backoff until it restores a connection or
// the transport is closed; each attempt tries every host of the URL.
func (t *Transport) recover() {
	delay := t.cfg.delay.min
	var lastErr error
	for attempt := 1; ; attempt++ {
		if !t.sleep(delay) {
			return
		}
		t.emit(RecoveryEvent{Kind: RecoveryRetrying, Attempt: attempt, Err: lastErr})
		if lastErr = t.reconnect(attempt); lastErr == nil {
			return
		}
		delay = min(2*delay, t.cfg.delay.max)
	}
}

// reconnect dials each host in turn, starting after the one that was lost,
// restores topology and subscriptions on the first that answers, then goes
// live.
func (t *Transport) reconnect(attempt int) error {
	ctx, cancel := t.untilClosed()
	defer cancel()
	l, err := t.openAny(ctx, t.nextHost())
	if err != nil {
		return err
	}
	wedged := time.AfterFunc(t.cfg.confirmTimeout, func() { _ = l.nc.Close() })
	later, topoErr, err := t.restore(l.conn)
	if !wedged.Stop() && err == nil {
		err = fmt.Errorf("redeclaring the topology took longer than rabbitmq.ConfirmTimeout (%v)", t.cfg.confirmTimeout)
	}
	if err != nil {
		_ = l.conn.Close()
		return err
	}
	t.setPendingRedeclares(len(later))
	if !t.markUp(l, later) {
		return nil
	}
	resumeErr := t.resumeAll(l.conn)
	t.emit(RecoveryEvent{Kind: RecoveryRecovered, Attempt: attempt, Err: errors.Join(topoErr, resumeErr)})
	return nil
}

// untilClosed returns a context cancelled when the transport closes.
func (t *Transport) untilClosed() (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		select {
		case <-t.done:
			cancel()
		case <-ctx.Done():
		}
	}()
	return ctx, cancel
}

// restore redeclares the remembered topology on conn, every declaration on
// a channel of its own, so one the broker refuses (a classic queue whose
// cluster node is down) stops nothing. The refused are returned, to be
// retried later (redeclareLater), and joined into topoErr; err is set when
// conn itself failed.
func (t *Transport) restore(conn *amqp.Connection) (refusedOps []topoOp, topoErr, err error) {
	var refused []error
	for _, op := range t.topo.ops() {
		ch, err := conn.Channel()
		if err != nil {
			return nil, nil, err
		}
		if e := op.apply(ch); e != nil {
			refused = append(refused, e)
			refusedOps = append(refusedOps, op)
		}
		_ = ch.Close()
		if conn.IsClosed() {
			return nil, nil, amqp.ErrClosed
		}
	}
	return refusedOps, errors.Join(refused...), nil
}

// redeclareLater retries the declarations recovery could not restore on
// conn, with the doubling RecoveryDelay, until each is accepted, conn is
// lost (the next recovery restores everything again) or the transport
// closes. It runs on the transport's WaitGroup.
func (t *Transport) redeclareLater(conn *amqp.Connection, ops []topoOp) {
	defer t.wg.Done()
	delay := t.cfg.delay.min
	for len(ops) > 0 {
		if !t.sleep(delay) || conn.IsClosed() {
			return
		}
		ops = t.redeclare(conn, ops)
		delay = min(2*delay, t.cfg.delay.max)
	}
}

// redeclare applies ops on conn and returns those still refused.
func (t *Transport) redeclare(conn *amqp.Connection, ops []topoOp) []topoOp {
	var left []topoOp
	for _, op := range ops {
		ch, err := conn.Channel()
		if err != nil {
			return ops
		}
		if err := op.apply(ch); err != nil {
			left = append(left, op)
		}
		_ = ch.Close()
	}
	t.setPendingRedeclares(len(left))
	return left
}

// sleep waits d, or returns false once the transport is closed.
func (t *Transport) sleep(d time.Duration) bool {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-t.done:
		return false
	}
}

// emit gives ev to OnRecovery, one event at a time.
func (t *Transport) emit(ev RecoveryEvent) {
	t.emitMu.Lock()
	defer t.emitMu.Unlock()
	t.cfg.onRecovery(ev)
}
