package contractspec

import (
	"slices"

	"github.com/acemq/acemq-gen/generator"
	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemqimpl"
)

// Topology is what generated code declares for entries, through the
// specifications Message and RPC build: each domain's topic exchange, its
// commands' queues, its RPCs' queues and its streams, as each generated package's
// Topology() declares them; then, for each of services, its event queues
// (acemq.SubscriberQueue), bound, as the generated Subscribe declares them.
// When an entry is schedulable, the family's schedule ladder (classic, as
// acemq.Topology.ScheduleLadder; acemq's SendAt and patterns.NewScheduler
// declare it at run time) is part of it too.
// A queue two entries share is declared once and bound for both. The
// error is acemq.SubscriberQueue's, or the topology's Validate.
func Topology(entries []generator.Entry, services []string) (*acemq.Topology, error) {
	b := &topologyBuilder{t: acemq.NewTopology()}
	for _, e := range entries {
		b.exchange(e.Domain)
		switch e.Kind {
		case "rpc":
			if b.first(e.Queue) {
				RPC(e).Declare(b.t)
			}
		case "command":
			b.consumer(e.Queue, e)
		case "stream":
			if b.first(e.Queue) {
				Stream(e).Declare(b.t)
			}
		}
	}
	if err := EventQueues(entries, services, b.consumer); err != nil {
		return nil, err
	}
	if i := slices.IndexFunc(entries, func(e generator.Entry) bool { return e.Schedulable }); i >= 0 {
		b.t.ScheduleLadder(acemq.QueueType(entries[i].ScheduleLadder)) // the contract's word is acemq's
	}
	return b.t, b.t.Validate()
}

// EventQueues calls each with every service's queue of every event of
// entries (acemqimpl.SubscriberQueue), services outermost, in catalog order;
// the error is SubscriberQueue's.
func EventQueues(entries []generator.Entry, services []string, each func(queue string, e generator.Entry)) error {
	for _, s := range services {
		for _, e := range entries {
			if e.Kind != "event" {
				continue
			}
			q, err := acemqimpl.SubscriberQueue(s, e.RoutingKey)
			if err != nil {
				return err
			}
			each(q, e)
		}
	}
	return nil
}

// topologyBuilder remembers the exchanges and queues a topology holds.
type topologyBuilder struct {
	t                 *acemq.Topology
	exchanges, queues []string
}

func (b *topologyBuilder) exchange(name string) {
	if !slices.Contains(b.exchanges, name) {
		b.exchanges = append(b.exchanges, name)
		b.t.Exchange(name, "topic")
	}
}

// first reports whether queue is new, and remembers it.
func (b *topologyBuilder) first(queue string) bool {
	if slices.Contains(b.queues, queue) {
		return false
	}
	b.queues = append(b.queues, queue)
	return true
}

// consumer adds queue as a consumer queue of e, or only its binding when
// another entry added it.
func (b *topologyBuilder) consumer(queue string, e generator.Entry) {
	if b.first(queue) {
		Message(e).AddTo(b.t, queue)
		return
	}
	b.t.Binding(queue, e.Exchange, e.RoutingKey)
}
