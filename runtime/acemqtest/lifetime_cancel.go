package acemqtest

import (
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// cancelCases pin how a transport reports a subscription the broker
// cancels (ConsumeSpec.OnCancel), as RabbitMQ's basic.cancel does when a
// queue is deleted under its consumers.
var cancelCases = []conformanceCase{
	{"consume/a-deleted-queue-cancels-its-subscription-through-on-cancel", deletedQueueCallsOnCancel},
	{"consume/cancel-and-close-by-the-caller-never-call-on-cancel", callerCancelIsNotOnCancel},
}

// onCancelSpy records the calls of an OnCancel.
type onCancelSpy chan error

func (s onCancelSpy) spec() driver.ConsumeSpec {
	return driver.ConsumeSpec{Prefetch: 1, OnCancel: func(err error) { s <- err }}
}

func deletedQueueCallsOnCancel(k *kit) {
	qd, ok := k.tr.(driver.QueueDeleter)
	if !ok {
		k.t.Skip("the transport cannot delete a queue (acemq.QueueDeleter)")
	}
	q := k.queue(nil)
	spy := make(onCancelSpy, 2)
	k.consumeSpec(q, spy.spec())
	if err := qd.DeleteQueue(k.ctx, q); err != nil {
		k.t.Fatal(err)
	}
	select {
	case err := <-spy:
		if err == nil {
			k.t.Error("OnCancel was called with a nil reason")
		}
	case <-time.After(5 * time.Second):
		k.t.Fatal("deleting the queue did not call the subscription's OnCancel")
	}
}

func callerCancelIsNotOnCancel(k *kit) {
	q := k.queue(nil)
	spy := make(onCancelSpy, 2)
	a, b := k.consumeSpec(q, spy.spec()), k.consumeSpec(q, spy.spec())
	if err := a.sub.Cancel(); err != nil {
		k.t.Fatal(err)
	}
	if err := b.sub.Close(); err != nil {
		k.t.Fatal(err)
	}
	select {
	case err := <-spy:
		k.t.Fatalf("OnCancel was called after the caller's own Cancel or Close: %v", err)
	case <-time.After(300 * time.Millisecond):
	}
}
