package ops

import (
	"fmt"
	"slices"
	"strings"

	"github.com/acemq/acemq-gen/generator"
	"github.com/acemq/acemq-gen/generator/contractspec"
	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
)

// Consumed is one queue the contracts imply a consumer reads: a command's
// owning queue, an RPC's request queue or a listed service's event queue,
// with the messages that arrive on it.
type Consumed struct {
	Queue   string            // the queue consumed
	Entries []generator.Entry // the messages that arrive on it, in catalog order
}

// ConsumedQueues lists the queues of entries, in catalog order: owned ones
// first (a command's, an RPC's, a stream's: its .dlq and .parked hold the
// copies of records its readers rejected or parked), then the schedule
// ladder's due queue when a message is schedulable (its dead letters are
// what the scheduler could not deliver), then each service's event queues.
func ConsumedQueues(entries []generator.Entry, services []string) ([]Consumed, error) {
	var out []Consumed
	add := func(queue string, e generator.Entry) {
		i := slices.IndexFunc(out, func(c Consumed) bool { return c.Queue == queue })
		if i < 0 {
			out = append(out, Consumed{Queue: queue})
			i = len(out) - 1
		}
		out[i].Entries = append(out[i].Entries, e)
	}
	for _, e := range entries {
		if e.Kind != "event" {
			add(e.Queue, e)
		}
	}
	for _, e := range entries {
		if e.Schedulable { // its messages wait on the ladder; the scheduler sets aside from the due queue
			add(semconv.ScheduleDueQueue, e)
		}
	}
	if err := contractspec.EventQueues(entries, services, add); err != nil {
		return nil, err
	}
	return out, nil
}

// SourceOf is the Consumed queue a dead-letter or parked queue belongs to:
// an owned queue, or an event queue <service>.<routing key> of any service.
func SourceOf(entries []generator.Entry, queue string) (Consumed, bool) {
	base, ok := strings.CutSuffix(queue, ".dlq")
	if !ok {
		base, ok = strings.CutSuffix(queue, ".parked")
	}
	if !ok {
		base = queue
	}
	owned, _ := ConsumedQueues(entries, nil)
	for _, c := range owned {
		if c.Queue == base {
			return c, true
		}
	}
	c := Consumed{Queue: base}
	for _, e := range entries {
		if e.Kind == "event" && strings.HasSuffix(base, "."+e.RoutingKey) && len(base) > len(e.RoutingKey)+1 {
			c.Entries = append(c.Entries, e)
		}
	}
	return c, len(c.Entries) > 0
}

// EntryFor is the entry of c whose messages carry envelope type typ.
func (c Consumed) EntryFor(typ string) (generator.Entry, bool) {
	for _, e := range c.Entries {
		if e.Type == typ {
			return e, true
		}
	}
	return generator.Entry{}, false
}

// destination is where a message of e dead-lettered from c belongs: a
// command to its exchange and routing key, an event to the consumer's own
// queue and an RPC request to its queue, both through the default exchange.
func (c Consumed) Destination(e generator.Entry) (exchange, key string) {
	if e.Kind == "command" {
		return e.Exchange, e.RoutingKey
	}
	return "", c.Queue
}

// ReadCatalog reads the contracts of paths; a contract error is printed.
func ReadCatalog(paths []string) ([]generator.Entry, error) {
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
