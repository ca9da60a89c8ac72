package plan

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/ops"
	"github.com/acemq/acemq-gen/generator/contractspec"
	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// diffClass is the kind of one plan difference.
type diffClass string

const (
	classMissing   diffClass = "missing"
	classDifferent diffClass = "different"
	classExtra     diffClass = "extra"
	classImmutable diffClass = "immutable"
)

// difference is one line of a plan.
type difference struct {
	class  diffClass
	kind   string // exchange, queue or binding
	name   string
	detail string
	steps  []string // immutable: how to migrate
	// what --apply declares for a missing object
	exchange *acemq.DeclaredExchange
	queue    *acemq.DeclaredQueue
	binding  *acemq.DeclaredBinding
}

func (d difference) String() string {
	s := fmt.Sprintf("%s %s %s", d.class, d.kind, d.name)
	if d.detail != "" {
		s += ": " + d.detail
	}
	for i, step := range d.steps {
		s += fmt.Sprintf("\n    %d. %s", i+1, step)
	}
	return s
}

// onlyMissing reports whether every difference is a missing object.
func onlyMissing(diffs []difference) bool {
	return !slices.ContainsFunc(diffs, func(d difference) bool { return d.class != classMissing })
}

// Run prints how the broker at o.URL differs from what the contracts of
// o.Paths declare, and with o.Apply declares what is missing. It reports
// whether the broker matches: no differences, or with o.Apply, only missing
// objects (now declared).
func Run(ctx context.Context, o Options, stdout io.Writer) (bool, error) {
	diffs, err := run(ctx, o, stdout)
	if err != nil {
		return false, err
	}
	return len(diffs) == 0 || o.Apply && onlyMissing(diffs), nil
}

func run(ctx context.Context, o Options, stdout io.Writer) ([]difference, error) {
	entries, err := ops.ReadCatalog(o.Paths)
	if err != nil {
		return nil, err
	}
	topo, err := contractspec.Topology(entries, o.Services)
	if err != nil {
		return nil, err
	}
	want, err := topo.Declarations()
	if err != nil {
		return nil, err
	}
	var diffs []difference
	if o.Management != "" {
		live, err := readManagement(ctx, o.Management, vhostOf(o.URL))
		if err != nil {
			return nil, err
		}
		diffs = compare(want, live)
	} else {
		var unchecked []string
		diffs, unchecked, err = compareByAMQP(ctx, o.URL, want)
		if err != nil {
			return nil, err
		}
		defer fmt.Fprintf(stdout, "not checked without --management: %s\n", strings.Join(unchecked, "; "))
	}
	for _, d := range diffs {
		fmt.Fprintln(stdout, d)
	}
	if len(diffs) == 0 {
		fmt.Fprintf(stdout, "no differences: %d exchanges, %d queues, %d bindings match the contracts\n",
			len(want.Exchanges), len(want.Queues), len(want.Bindings))
	}
	if o.Apply {
		return diffs, applyMissing(ctx, o.URL, diffs, stdout)
	}
	return diffs, nil
}

// live is what the broker holds, as the management API reports it.
type live struct {
	exchanges map[string]liveExchange
	queues    map[string]liveQueue
	bindings  []acemq.DeclaredBinding // queue destinations only
}

type liveExchange struct {
	kind                string
	durable, autoDelete bool
	args                map[string]any
}

type liveQueue struct {
	typ                            string
	durable, autoDelete, exclusive bool
	args                           map[string]any
}

// compare classifies every difference between want and l.
func compare(want acemq.Declarations, l live) []difference {
	var diffs []difference
	for _, e := range want.Exchanges {
		diffs = append(diffs, compareExchange(e, l)...)
	}
	for _, q := range want.Queues {
		diffs = append(diffs, compareQueue(q, l)...)
	}
	diffs = append(diffs, compareBindings(want, l)...)
	return diffs
}

func compareExchange(e acemq.DeclaredExchange, l live) []difference {
	got, ok := l.exchanges[e.Name]
	if !ok {
		return []difference{{class: classMissing, kind: "exchange", name: e.Name, detail: describeExchange(e.Spec), exchange: &e}}
	}
	var diffs []difference
	if got.kind != e.Spec.Kind || got.durable != e.Spec.Durable {
		diffs = append(diffs, difference{class: classImmutable, kind: "exchange", name: e.Name,
			detail: fmt.Sprintf("expected %s, actual %s", describeExchange(e.Spec), describeExchange(driver.ExchangeSpec{Kind: got.kind, Durable: got.durable})),
			steps: []string{
				fmt.Sprintf("declare a temporary exchange %s.migrate as the contract says and bind its queues there", e.Name),
				"move the publishers to it, then delete " + e.Name,
				"run acemq-gen plan --apply to declare " + e.Name + " again, bind its queues and move the publishers back",
			}})
	}
	return append(diffs, compareArgs("exchange", e.Name, e.Spec.Args, got.args, nil)...)
}

// immutableArgs are queue arguments RabbitMQ cannot change on a queue that
// exists (a policy can override some, but the declared value stays).
var immutableArgs = []string{driver.ArgQueueType, driver.ArgDeadLetterExchange, driver.ArgDeadLetterRoutingKey}

func compareQueue(q acemq.DeclaredQueue, l live) []difference {
	got, ok := l.queues[q.Name]
	if !ok {
		return []difference{{class: classMissing, kind: "queue", name: q.Name, detail: describeQueue(q.Spec), queue: &q}}
	}
	var diffs []difference
	if want := queueType(q.Spec.Args); got.typ != want {
		diffs = append(diffs, immutableQueue(q.Name, "type", want, got.typ))
	}
	if got.durable != q.Spec.Durable {
		diffs = append(diffs, immutableQueue(q.Name, "durable", fmt.Sprint(q.Spec.Durable), fmt.Sprint(got.durable)))
	}
	return append(diffs, compareArgs("queue", q.Name, withoutType(q.Spec.Args), withoutType(got.args), immutableArgs)...)
}

func immutableQueue(name, what, want, got string) difference {
	return difference{class: classImmutable, kind: "queue", name: name,
		detail: fmt.Sprintf("%s expected %s, actual %s; RabbitMQ cannot change it in place", what, want, got),
		steps:  migrationSteps(name)}
}

// migrationSteps are how a person replaces queue without losing a message.
func migrationSteps(queue string) []string {
	tmp := queue + ".migrate"
	return []string{
		fmt.Sprintf("declare %s with the contract's arguments and bind it as %s is bound, so new messages reach both", tmp, queue),
		fmt.Sprintf("stop %s's consumers and move its messages to %s (a shovel, or acemq-gen dlq redrive for its .dlq)", queue, tmp),
		fmt.Sprintf("once %s is empty, delete it and run acemq-gen plan --apply to declare it as the contract says", queue),
		fmt.Sprintf("move %s's messages back to %s, start the consumers, then delete %s", tmp, queue, tmp),
	}
}

// compareArgs reports each argument of want that got lacks or holds
// otherwise (immutable for the names in fixed) and each extra one of got.
func compareArgs(kind, name string, want, got map[string]any, fixed []string) []difference {
	var diffs []difference
	for _, k := range slices.Sorted(maps.Keys(want)) {
		g, ok := got[k]
		if ok && sameValue(want[k], g) {
			continue
		}
		actual := "absent"
		if ok {
			actual = fmt.Sprint(g)
		}
		d := difference{class: classDifferent, kind: kind, name: name,
			detail: fmt.Sprintf("argument %s expected %v, actual %s", k, want[k], actual)}
		if slices.Contains(fixed, k) {
			d.class, d.detail, d.steps = classImmutable, d.detail+"; RabbitMQ cannot change it in place", migrationSteps(name)
		}
		diffs = append(diffs, d)
	}
	for _, k := range slices.Sorted(maps.Keys(got)) {
		if _, ok := want[k]; !ok {
			diffs = append(diffs, difference{class: classExtra, kind: kind, name: name,
				detail: fmt.Sprintf("argument %s=%v, which the contract does not imply", k, got[k])})
		}
	}
	return diffs
}

func compareBindings(want acemq.Declarations, l live) []difference {
	var diffs []difference
	ours := map[string]bool{}
	for _, q := range want.Queues {
		ours[q.Name] = true
	}
	for _, b := range want.Bindings {
		if !slices.Contains(l.bindings, b) {
			diffs = append(diffs, difference{class: classMissing, kind: "binding", name: bindingName(b), binding: &b})
		}
	}
	for _, b := range l.bindings {
		if ours[b.Queue] && !slices.Contains(want.Bindings, b) {
			diffs = append(diffs, difference{class: classExtra, kind: "binding", name: bindingName(b),
				detail: "the contract does not imply it"})
		}
	}
	return diffs
}

func bindingName(b acemq.DeclaredBinding) string {
	return fmt.Sprintf("%s -> %s (%s)", b.Exchange, b.Queue, b.Key)
}

// sameValue compares argument values across JSON and AMQP: numbers by value.
func sameValue(a, b any) bool {
	if x, ok := number(a); ok {
		y, ok := number(b)
		return ok && x == y
	}
	return fmt.Sprint(a) == fmt.Sprint(b)
}

func number(v any) (float64, bool) {
	switch n := v.(type) {
	case int:
		return float64(n), true
	case int16:
		return float64(n), true
	case int32:
		return float64(n), true
	case int64:
		return float64(n), true
	case float64:
		return n, true
	case float32:
		return float64(n), true
	}
	return 0, false
}

func queueType(args map[string]any) string {
	if t, ok := args[driver.ArgQueueType]; ok {
		return fmt.Sprint(t)
	}
	return string(acemq.QueueClassic)
}

func withoutType(args map[string]any) map[string]any {
	out := maps.Clone(args)
	delete(out, driver.ArgQueueType)
	return out
}

func describeExchange(s driver.ExchangeSpec) string {
	return fmt.Sprintf("%s, %s", s.Kind, durable(s.Durable))
}

func describeQueue(s driver.QueueSpec) string {
	parts := []string{durable(s.Durable), queueType(s.Args)}
	for _, k := range slices.Sorted(maps.Keys(withoutType(s.Args))) {
		parts = append(parts, fmt.Sprintf("%s=%v", k, s.Args[k]))
	}
	return strings.Join(parts, ", ")
}

func durable(d bool) string {
	if d {
		return "durable"
	}
	return "transient"
}

// applyMissing declares the missing objects, exchanges then queues then
// bindings, and nothing else.
func applyMissing(ctx context.Context, rawURL string, diffs []difference, stdout io.Writer) error {
	conn, err := ops.Connect(ctx, rawURL)
	if err != nil {
		return err
	}
	defer conn.Close()
	t := conn.Transport()
	for _, pass := range []string{"exchange", "queue", "binding"} {
		for _, d := range diffs {
			if d.class != classMissing || d.kind != pass {
				continue
			}
			switch {
			case d.exchange != nil:
				err = t.DeclareExchange(ctx, d.exchange.Name, d.exchange.Spec)
			case d.queue != nil:
				err = t.DeclareQueue(ctx, d.queue.Name, d.queue.Spec)
			case d.binding != nil:
				err = t.Bind(ctx, d.binding.Queue, d.binding.Exchange, d.binding.Key)
			}
			if err != nil {
				return fmt.Errorf("acemq-gen: cannot declare %s %s: %w", d.kind, d.name, err)
			}
			fmt.Fprintf(stdout, "declared %s %s\n", d.kind, d.name)
		}
	}
	return nil
}
