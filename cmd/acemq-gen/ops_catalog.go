package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/acemq/acemq-gen/generator"
	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemqimpl"
)

// consumed is one queue the contracts imply a consumer reads: a command's
// owning queue, an RPC's request queue or a listed service's event queue,
// with the messages that arrive on it.
type consumed struct {
	queue   string
	entries []generator.Entry
}

// consumedQueues lists the queues of entries, in catalog order: owned ones
// first, then each service's event queues.
func consumedQueues(entries []generator.Entry, services []string) ([]consumed, error) {
	var out []consumed
	add := func(queue string, e generator.Entry) {
		i := slices.IndexFunc(out, func(c consumed) bool { return c.queue == queue })
		if i < 0 {
			out = append(out, consumed{queue: queue})
			i = len(out) - 1
		}
		out[i].entries = append(out[i].entries, e)
	}
	for _, e := range entries {
		if e.Kind != "event" {
			add(e.Queue, e)
		}
	}
	for _, s := range services {
		for _, e := range entries {
			if e.Kind != "event" {
				continue
			}
			q, err := acemq.SubscriberQueue(s, e.RoutingKey)
			if err != nil {
				return nil, err
			}
			add(q, e)
		}
	}
	return out, nil
}

// sourceOf is the consumed queue a dead-letter or parked queue belongs to:
// an owned queue, or an event queue <service>.<routing key> of any service.
func sourceOf(entries []generator.Entry, queue string) (consumed, bool) {
	base, ok := strings.CutSuffix(queue, ".dlq")
	if !ok {
		base, ok = strings.CutSuffix(queue, ".parked")
	}
	if !ok {
		base = queue
	}
	owned, _ := consumedQueues(entries, nil)
	for _, c := range owned {
		if c.queue == base {
			return c, true
		}
	}
	c := consumed{queue: base}
	for _, e := range entries {
		if e.Kind == "event" && strings.HasSuffix(base, "."+e.RoutingKey) && len(base) > len(e.RoutingKey)+1 {
			c.entries = append(c.entries, e)
		}
	}
	return c, len(c.entries) > 0
}

// entryFor is the entry of c whose messages carry envelope type typ.
func (c consumed) entryFor(typ string) (generator.Entry, bool) {
	for _, e := range c.entries {
		if e.Type == typ {
			return e, true
		}
	}
	return generator.Entry{}, false
}

// destination is where a message of e dead-lettered from c belongs: a
// command to its exchange and routing key, an event to the consumer's own
// queue and an RPC request to its queue, both through the default exchange.
func (c consumed) destination(e generator.Entry) (exchange, key string) {
	if e.Kind == "command" {
		return e.Exchange, e.RoutingKey
	}
	return "", c.queue
}

// retryPolicy is e's retry policy as the runtime takes it.
func retryPolicy(r generator.Retry) acemq.RetryPolicy {
	var p acemq.RetryPolicy
	if r.Backoff == "fixed" {
		p = acemq.FixedRetry(r.Attempts, r.Initial)
	} else {
		p = acemq.ExponentialRetry(r.Attempts, r.Initial, r.Max)
	}
	if r.MaxAge > 0 {
		p = p.GiveUpAfter(r.MaxAge)
	}
	return p
}

// contractTopology is what generated code declares for entries, and what
// each service's event consumers declare: the domains' topic exchanges, the
// owned queues (commands quorum with dead-letter and retry queues, RPCs
// quorum with a dead-letter queue) and the services' event queues, bound.
// The queues are added by the runtime's own specifications (acemqimpl), as
// generated code adds them, with the contract's queue keys.
func contractTopology(entries []generator.Entry, services []string) (*acemq.Topology, error) {
	t := acemq.NewTopology()
	var exchanges, queues []string
	exchange := func(name string) {
		if !slices.Contains(exchanges, name) {
			exchanges = append(exchanges, name)
			t.Exchange(name, "topic")
		}
	}
	consumer := func(queue string, e generator.Entry) {
		if slices.Contains(queues, queue) {
			t.Binding(queue, e.Exchange, e.RoutingKey)
			return
		}
		queues = append(queues, queue)
		spec := &acemqimpl.MessageSpec[struct{}]{Exchange: e.Exchange, RoutingKey: e.RoutingKey,
			Retry: retryPolicy(e.Retry), Queues: e.Queues}
		spec.AddTo(t, queue)
	}
	for _, e := range entries {
		switch e.Kind {
		case "rpc":
			if !slices.Contains(queues, e.Queue) {
				queues = append(queues, e.Queue)
				spec := &acemqimpl.RPCSpec[struct{}, struct{}]{Queue: e.Queue, Queues: e.Queues}
				spec.Declare(t)
			}
		case "command":
			exchange(e.Exchange)
			consumer(e.Queue, e)
		default:
			exchange(e.Exchange)
		}
	}
	for _, s := range services {
		for _, e := range entries {
			if e.Kind != "event" {
				continue
			}
			q, err := acemq.SubscriberQueue(s, e.RoutingKey)
			if err != nil {
				return nil, err
			}
			consumer(q, e)
		}
	}
	return t, t.Validate()
}

// readCatalog reads the contracts of paths; a contract error is printed.
func readCatalog(paths []string) ([]generator.Entry, error) {
	srcs, err := generator.ReadSources(paths)
	if err != nil {
		return nil, err
	}
	entries, ds := generator.Catalog(srcs)
	if ds.HasErrors() {
		var lines []string
		for _, d := range ds {
			lines = append(lines, d.String())
		}
		return nil, fmt.Errorf("%s", strings.Join(lines, "\n"))
	}
	return entries, nil
}
