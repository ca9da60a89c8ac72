package acemq

import "github.com/acemq/acemq-gen/runtime/acemq/driver"

// Declarations is what a topology declares, settled as the broker receives
// it: each exchange's and queue's spec with its defaults and the
// DeadLetters stamp applied. Tools compare it with a live broker.
type Declarations struct {
	Exchanges []DeclaredExchange
	Queues    []DeclaredQueue
	Bindings  []DeclaredBinding
}

// DeclaredExchange is one exchange of a topology.
type DeclaredExchange struct {
	Name string
	Spec driver.ExchangeSpec
}

// DeclaredQueue is one queue of a topology.
type DeclaredQueue struct {
	Name string
	Spec driver.QueueSpec
}

// DeclaredBinding binds Queue to Exchange with Key.
type DeclaredBinding struct {
	Queue, Exchange, Key string
}

// Declarations returns what Apply would declare, in its order, or Validate's
// error when t is invalid. The specs are new values on every call.
func (t *Topology) Declarations() (Declarations, error) {
	if err := t.Validate(); err != nil {
		return Declarations{}, err
	}
	var d Declarations
	for _, e := range t.exchanges {
		spec, err := buildExchangeSpec(e.kind, e.opts)
		if err != nil {
			return Declarations{}, err
		}
		d.Exchanges = append(d.Exchanges, DeclaredExchange{Name: e.name, Spec: spec})
	}
	for _, q := range t.queues {
		spec, err := buildQueueSpec(t.queueOptions(q))
		if err != nil {
			return Declarations{}, err
		}
		d.Queues = append(d.Queues, DeclaredQueue{Name: q.name, Spec: spec})
	}
	for _, b := range t.bindings {
		d.Bindings = append(d.Bindings, DeclaredBinding{Queue: b.queue, Exchange: b.exchange, Key: b.key})
	}
	return d, nil
}
