package acemq

import (
	"context"
	"slices"
	"sync"

	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// declaredSet remembers the queues, exchanges and bindings declared through
// a Conn, as the broker received them, so that a consumer whose queue the
// broker deleted can declare it again, and a topology applied again can
// bind the running consumers' queues again. The zero value is empty. Safe
// for concurrent use.
type declaredSet struct {
	mu        sync.Mutex
	queues    map[string]driver.QueueSpec
	exchanges map[string]driver.ExchangeSpec
	bindings  []topoBinding
}

func (s *declaredSet) queue(name string, spec driver.QueueSpec) {
	s.mu.Lock()
	defer s.mu.Unlock()
	remember(&s.queues, name, spec)
}

func (s *declaredSet) exchange(name string, spec driver.ExchangeSpec) {
	s.mu.Lock()
	defer s.mu.Unlock()
	remember(&s.exchanges, name, spec)
}

// remember sets (*m)[name] to spec, making the map when it is nil.
func remember[S any](m *map[string]S, name string, spec S) {
	if *m == nil {
		*m = map[string]S{}
	}
	(*m)[name] = spec
}

func (s *declaredSet) binding(b topoBinding) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !slices.ContainsFunc(s.bindings, b.same) {
		s.bindings = append(s.bindings, b)
	}
}

// forgetQueue drops queue and its bindings (the queue was deleted on purpose).
func (s *declaredSet) forgetQueue(queue string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.queues, queue)
	s.bindings = slices.DeleteFunc(s.bindings, func(b topoBinding) bool { return b.queue == queue })
}

// ownedQueue is a queue declared through the connection, with its bindings
// and the exchanges they name that were declared through it too.
type ownedQueue struct {
	name      string
	spec      driver.QueueSpec
	exchanges map[string]driver.ExchangeSpec
	bindings  []topoBinding
}

// owned returns what was declared of queue; ok is false when queue was not
// declared through the connection.
func (s *declaredSet) owned(queue string) (q ownedQueue, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	spec, ok := s.queues[queue]
	q = ownedQueue{name: queue, spec: spec, exchanges: map[string]driver.ExchangeSpec{}, bindings: s.bindingsOf(queue)}
	for _, b := range q.bindings {
		if x, known := s.exchanges[b.exchange]; known {
			q.exchanges[b.exchange] = x
		}
	}
	return q, ok
}

// bindingsOf returns queue's bindings. Call with s.mu held.
func (s *declaredSet) bindingsOf(queue string) []topoBinding {
	var out []topoBinding
	for _, b := range s.bindings {
		if b.queue == queue {
			out = append(out, b)
		}
	}
	return out
}

// redeclare declares q again through t: the exchanges its bindings name,
// the queue, then its bindings; it stops at the first failure.
func (q ownedQueue) redeclare(ctx context.Context, t driver.Transport) error {
	for name, spec := range q.exchanges {
		if err := t.DeclareExchange(ctx, name, spec); err != nil {
			return wrapf(err, "acemq: cannot declare exchange %q again", name)
		}
	}
	if err := t.DeclareQueue(ctx, q.name, q.spec); err != nil {
		return wrapf(err, "acemq: cannot declare queue %q again", q.name)
	}
	return q.rebind(ctx, t, nil)
}

// rebind binds q's bindings again through t, those to an exchange of only
// when only is not nil.
func (q ownedQueue) rebind(ctx context.Context, t driver.Transport, only map[string]bool) error {
	for _, b := range q.bindings {
		if only != nil && !only[b.exchange] {
			continue
		}
		if err := t.Bind(ctx, b.queue, b.exchange, b.key); err != nil {
			return wrapf(err, "acemq: cannot bind queue %q to exchange %q with key %q again", b.queue, b.exchange, b.key)
		}
	}
	return nil
}

// bindingsTo returns queue's bindings to the exchanges of only, leaving out
// those in skip.
func (s *declaredSet) bindingsTo(queue string, only map[string]bool, skip []topoBinding) []topoBinding {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []topoBinding
	for _, b := range s.bindingsOf(queue) {
		if only[b.exchange] && !slices.ContainsFunc(skip, b.same) {
			out = append(out, b)
		}
	}
	return out
}

// rebindConsumers binds the queues of the running consumers again to the
// exchanges of only, as they were bound through the connection, except the
// bindings in skip (just made). A consumer whose queue is missing
// (Interrupted) is left out: it binds its queue again when it declares it
// again. A binding refused is logged and the others still made.
func (c *Conn) rebindConsumers(ctx context.Context, only map[string]bool, skip []topoBinding) error {
	if len(only) == 0 {
		return nil
	}
	for _, k := range c.consumerList() {
		if k.Interrupted() != nil {
			continue
		}
		q := ownedQueue{name: k.queue, bindings: c.declared.bindingsTo(k.queue, only, skip)}
		if err := q.rebind(ctx, c.transport, nil); err != nil {
			if ctx.Err() != nil {
				return err
			}
			c.cfg.logger.Warn("acemq: cannot bind a consumer's queue again", "queue", k.queue, "error", err)
		}
	}
	return nil
}
