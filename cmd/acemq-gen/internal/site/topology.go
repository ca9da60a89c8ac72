package site

import (
	"fmt"
	"slices"

	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/sysgraph"
	"github.com/acemq/acemq-gen/generator"
	"github.com/acemq/acemq-gen/generator/contractspec"
	"github.com/acemq/acemq-gen/runtime/acemq"
)

// topology is what the runtime declares for the contracts: the queues the
// generated code owns (contractspec.Topology) and, with a usage graph, each
// consuming service's event queue.
type topology struct {
	acemq.Declarations
}

// queueView is one consumed queue and where its messages are set aside.
type queueView struct {
	Name, Type         string
	DeadLetter, Parked string
	Rungs              []string
	Consumers          []*serviceView
	Bindings           []acemq.DeclaredBinding
}

// newTopology declares entries' owned queues, then the event queue of every
// consumer the usage graph holds.
func newTopology(entries []generator.Entry, g *sysgraph.Graph) (*topology, error) {
	t, err := contractspec.Topology(entries, nil)
	if err != nil {
		return nil, fmt.Errorf("catalog: %w", err)
	}
	declared := map[string]bool{}
	for _, e := range entries {
		declared[e.Queue] = e.Queue != ""
	}
	for _, q := range eventQueues(entries, g) {
		if !declared[q.queue] {
			contractspec.Message(q.entry).AddTo(t, q.queue)
			declared[q.queue] = true
			continue
		}
		t.Binding(q.queue, q.entry.Exchange, q.entry.RoutingKey)
	}
	d, err := t.Declarations()
	if err != nil {
		return nil, fmt.Errorf("catalog: %w", err)
	}
	return &topology{Declarations: d}, nil
}

type eventQueue struct {
	queue string
	entry generator.Entry
}

// eventQueues is each event consumer's queue in g: the one it names, or
// the service's subscriber queue.
func eventQueues(entries []generator.Entry, g *sysgraph.Graph) []eventQueue {
	if g == nil {
		return nil
	}
	var out []eventQueue
	for _, s := range g.Services {
		for _, u := range s.Consumes {
			i := slices.IndexFunc(entries, func(e generator.Entry) bool {
				return e.Kind == "event" && e.Domain == u.Domain && e.Name == u.Message
			})
			if i < 0 {
				continue
			}
			if q := consumerQueue(s.Name, u, entries[i]); q != "" {
				out = append(out, eventQueue{q, entries[i]})
			}
		}
	}
	return out
}

// queue is the declared queue named name, if any.
func (t *topology) queue(name string) (acemq.DeclaredQueue, bool) {
	i := slices.IndexFunc(t.Queues, func(q acemq.DeclaredQueue) bool { return q.Name == name })
	if i < 0 {
		return acemq.DeclaredQueue{}, false
	}
	return t.Queues[i], true
}

// view is the queue named name with where it sets messages aside: its
// dead-letter and parked queues, and the rung queues of policy's waits.
func (t *topology) view(name string, policy acemq.RetryPolicy, s *site) queueView {
	q, _ := t.queue(name)
	v := queueView{Name: name, Type: fmt.Sprint(q.Spec.Args["x-queue-type"])}
	if v.Type == "<nil>" {
		v.Type = "classic"
	}
	// a stream's readers declare its .dlq and .parked (the copies of records
	// they reject or park) when they start, so the domain's topology has them not
	stream := v.Type == string(acemq.QueueStream)
	if _, ok := t.queue(acemq.DeadLetterQueue(name)); ok || stream {
		v.DeadLetter = acemq.DeadLetterQueue(name)
	}
	if _, ok := t.queue(acemq.ParkedQueue(name)); ok || stream {
		v.Parked = acemq.ParkedQueue(name)
	}
	for _, w := range policy.Schedule() {
		if r := acemq.RungQueue(name, w); !slices.Contains(v.Rungs, r) {
			if _, ok := t.queue(r); ok {
				v.Rungs = append(v.Rungs, r)
			}
		}
	}
	for _, b := range t.Bindings {
		if b.Queue == name {
			v.Bindings = append(v.Bindings, b)
		}
	}
	v.Consumers = s.consumersOf(name)
	return v
}

// messageQueues is every queue e's messages are consumed from: its own
// queue, then each queue bound to its exchange with its routing key.
func (t *topology) messageQueues(e generator.Entry, s *site) []queueView {
	var names []string
	if _, ok := t.queue(e.Queue); ok && e.Queue != "" {
		names = append(names, e.Queue)
	}
	for _, b := range t.Bindings {
		if e.Exchange != "" && b.Exchange == e.Exchange && b.Key == e.RoutingKey && !slices.Contains(names, b.Queue) {
			names = append(names, b.Queue)
		}
	}
	var out []queueView
	for _, n := range names {
		out = append(out, t.view(n, e.Retry.Policy(), s))
	}
	return out
}

// domainQueues is every queue d's messages are consumed from, each once,
// in declaration order.
func (t *topology) domainQueues(d *domainView, s *site) []queueView {
	var out []queueView
	for _, m := range d.Messages {
		for _, q := range t.messageQueues(m.Entry, s) {
			if !slices.ContainsFunc(out, func(o queueView) bool { return o.Name == q.Name }) {
				out = append(out, q)
			}
		}
	}
	return out
}
