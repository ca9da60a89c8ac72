package acemq

import (
	"context"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// Pending is the outcome of one SendAsync: the message is written, its
// confirm is still to come. The outcome is settled exactly once, when the
// transport knows it (the broker's confirm, a nack, a channel or connection
// lost first), whether or not anyone waits for it: the publish's outcome
// hooks run then, before any Wait returns. Safe for concurrent use.
type Pending struct {
	done  chan struct{}
	res   PublishResult
	err   error
	s     settler
	o     *outgoing
	conf  driver.Confirmation
	ctx   context.Context // SendAsync's, for the hooks (without its cancellation)
	start time.Time
	next  *Pending // the connection's settle queue
}

// Wait returns what SendResult would have returned for the message, once
// its outcome is known. When ctx has ended (already, or before the outcome
// is known) Wait returns ctx.Err(); the outcome is not lost: a later Wait
// returns it. Wait may be called any number of times, from any goroutine;
// every call after the outcome is known returns the same.
func (p *Pending) Wait(ctx context.Context) (PublishResult, error) {
	if err := ctx.Err(); err != nil {
		return PublishResult{}, err
	}
	select {
	case <-p.done:
		return p.res, p.err
	case <-ctx.Done():
		return PublishResult{}, ctx.Err()
	}
}

// Done returns a channel closed once the outcome is known (and the outcome
// hooks have run); Wait then returns at once.
func (p *Pending) Done() <-chan struct{} { return p.done }

// settler is the part of a Publisher[T] a Pending needs once the transport
// answers: interpret the answer and run the outcome hooks.
type settler interface {
	settle(o *outgoing, res PublishResult, err error, start time.Time)
	finish(ctx context.Context, o *outgoing)
	releaseSettled(o *outgoing, err error)
}

// resolve settles the pending publish with the transport's answer: the
// publisher interprets it, counts it and runs its hooks; then every Wait
// returns it. Called once.
func (p *Pending) resolve(res PublishResult, err error) {
	p.s.settle(p.o, res, err, p.start)
	p.s.finish(p.hookContext(), p.o)
	p.res, p.err = p.o.res, p.o.err
	p.s.releaseSettled(p.o, err)
	p.s, p.o, p.conf, p.ctx = nil, nil, nil, nil
	close(p.done)
}

// hookContext is SendAsync's context without its cancellation (the caller
// may well have cancelled it by the time the confirm arrives), or as it is
// when no hook needs it.
func (p *Pending) hookContext() context.Context {
	if len(p.o.pc.hooks) == 0 {
		return p.ctx
	}
	return context.WithoutCancel(p.ctx)
}
