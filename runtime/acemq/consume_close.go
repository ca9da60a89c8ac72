package acemq

import (
	"time"
)

// Close stops the consumer: no new deliveries, deliveries not yet started go
// back to the queue, running handlers may finish within the DrainTimeout.
// At the bound their contexts are cancelled and Close returns a
// *DrainTimeoutError (matching ErrDrainTimeout); their messages return to
// the queue. Idempotent: later calls return the first call's result. Called
// from one of the consumer's own handlers, it cannot finish before the
// DrainTimeout, since it waits for that handler.
func (c *Consumer) Close() error {
	c.closeOnce.Do(func() { c.closeErr = c.shutdown() })
	return c.closeErr
}

func (c *Consumer) shutdown() error {
	close(c.stopping)
	sub := c.currentSub()
	if err := sub.Cancel(); err != nil {
		c.conn.cfg.logger.Warn("acemq: cannot cancel a subscription", "queue", c.queue, "error", err)
	}
	c.requeueWaiting()
	err := c.drain()
	c.requeueWaiting()
	if cerr := sub.Close(); cerr != nil {
		c.conn.cfg.logger.Warn("acemq: cannot close a subscription", "queue", c.queue, "error", cerr)
	}
	c.cancelHandlers()
	c.conn.forget(c)
	close(c.done)
	return err
}

// drain waits for the workers, up to the DrainTimeout and then a short grace
// after cancelling the handlers' contexts.
func (c *Consumer) drain() error {
	finished := make(chan struct{})
	go func() {
		c.workers.Wait()
		close(finished)
	}()
	if c.cfg.drain == 0 {
		<-finished
		return nil
	}
	if waitOrTimeout(finished, c.cfg.drain) {
		return nil
	}
	stranded := int(c.running.Load())
	c.cancelHandlers()
	waitOrTimeout(finished, drainGrace)
	if stranded == 0 {
		return nil
	}
	return &DrainTimeoutError{Queue: c.queue, Stranded: stranded}
}

// waitOrTimeout reports whether ch closed within d.
func waitOrTimeout(ch <-chan struct{}, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ch:
		return true
	case <-t.C:
		return false
	}
}
