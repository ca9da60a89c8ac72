package acemq

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// Topology is a set of exchanges, queues and bindings to declare together,
// built by chaining: NewTopology().Exchange(...).Queue(...).Binding(...).
// Mistakes are collected and reported by Validate (and Apply), not by the
// chained calls. A Topology is not safe for concurrent modification; once
// built it may be applied and printed from several goroutines.
type Topology struct {
	exchanges   []topoExchange
	queues      []topoQueue
	bindings    []topoBinding
	deadLetters []string
	halves      []string             // queues with a dead-letter half but no DeadLetters stamp (Consume's)
	setAside    map[string]QueueType // queue -> the type of its set-aside queues, when fixed
	external    map[string]bool
	problems    []error
}

type topoExchange struct {
	name, kind string
	opts       []ExchangeOption
}

type topoQueue struct {
	name string
	opts []QueueOption
}

type topoBinding struct {
	queue, exchange, key string
}

func (b topoBinding) String() string {
	return fmt.Sprintf("%s -> %s (%s)", b.exchange, b.queue, b.key)
}

// NewTopology returns an empty topology.
func NewTopology() *Topology {
	return &Topology{external: map[string]bool{}, setAside: map[string]QueueType{}}
}

// Exchange declares an exchange of kind (direct, topic, fanout or headers),
// durable unless TransientExchange is given.
func (t *Topology) Exchange(name, kind string, opts ...ExchangeOption) *Topology {
	t.exchanges = append(t.exchanges, topoExchange{name: name, kind: kind, opts: opts})
	return t
}

// Queue declares a queue: durable and quorum unless opts say otherwise.
func (t *Topology) Queue(name string, opts ...QueueOption) *Topology {
	t.queues = append(t.queues, topoQueue{name: name, opts: opts})
	return t
}

// Binding binds queue to exchange with routing key (a pattern on a topic
// exchange). Both must be declared by this topology.
func (t *Topology) Binding(queue, exchange, key string) *Topology {
	t.bindings = append(t.bindings, topoBinding{queue: queue, exchange: exchange, key: key})
	return t
}

// DeadLetters gives queue the family's dead-letter half: it stamps queue with
// x-dead-letter-exchange acemq.dlx and x-dead-letter-routing-key {queue}.dlq
// (so the broker's own rejections land there too), and adds the acemq.dlx
// exchange and the {queue}.dlq and {queue}.parked queues bound to it on their
// own names: classic queues, as the family declares them, unless the
// connection it is applied through has SetAsideQueuesOfType. queue must be
// declared by this topology without DeadLetterTo.
func (t *Topology) DeadLetters(queue string) *Topology {
	if !slices.Contains(t.deadLetters, queue) {
		t.deadLetters = append(t.deadLetters, queue)
	}
	t.addDeadLetterHalf(queue)
	return t
}

// DeadLettersOfType is DeadLetters with {queue}.dlq and {queue}.parked
// declared as queues of type qt, QueueClassic or QueueQuorum, whatever the
// connection's SetAsideQueuesOfType says: a contract's set-aside-queues key.
// Quorum set-aside queues survive a minority of a cluster's nodes down.
func (t *Topology) DeadLettersOfType(queue string, qt QueueType) *Topology {
	if err := setAsideType(qt, fmt.Sprintf("DeadLettersOfType(%q)", queue)); err != nil {
		t.problems = append(t.problems, err)
		return t
	}
	if t.setAside == nil {
		t.setAside = map[string]QueueType{}
	}
	t.setAside[queue] = qt
	return t.DeadLetters(queue)
}

func (t *Topology) addDeadLetterHalf(queue string) {
	t.addLibraryExchange(DeadLetterExchange, "direct")
	qt := cmp.Or(t.setAside[queue], QueueClassic)
	for _, q := range []string{DeadLetterQueue(queue), ParkedQueue(queue)} {
		t.addLibraryQueue(q, OfType(qt))
		t.addLibraryBinding(q, DeadLetterExchange, q)
	}
}

// Retries gives queue the broker half of policy's retries: the acemq.retry
// exchange, one classic rung queue per broker wait ({queue}.retry.{delay},
// see rungArgs) and queue bound to acemq.retry on its own name. A policy
// with no broker waits adds nothing; an invalid one is reported by Validate.
func (t *Topology) Retries(queue string, policy RetryPolicy) *Topology {
	if err := policy.Validate(); err != nil {
		t.problems = append(t.problems, fmt.Errorf("%w (the retry policy of queue %q)", err, queue))
		return t
	}
	rungs := ladderFor(queue, policy)
	if len(rungs) == 0 {
		return t
	}
	t.addLibraryExchange(RetryExchange, "direct")
	for _, r := range rungs {
		t.addLibraryQueue(r.Queue, rungOptions(r)...)
	}
	t.addLibraryBinding(queue, RetryExchange, queue)
	return t
}

func rungOptions(r ladderRung) []QueueOption {
	opts := []QueueOption{OfType(QueueClassic)}
	for _, k := range slices.Sorted(maps.Keys(r.Args)) {
		opts = append(opts, QueueArg(k, r.Args[k]))
	}
	return opts
}

func (t *Topology) addLibraryExchange(name, kind string) {
	if !slices.ContainsFunc(t.exchanges, func(e topoExchange) bool { return e.name == name }) {
		t.exchanges = append(t.exchanges, topoExchange{name: name, kind: kind})
	}
}

// addLibraryQueue adds a queue the library names (a dead-letter, parked or
// rung queue) unless one of that name is there already; one declared with
// other arguments (a rung of another TTL) is a problem, never kept silently.
func (t *Topology) addLibraryQueue(name string, opts ...QueueOption) {
	q := topoQueue{name: name, opts: opts}
	i := slices.IndexFunc(t.queues, func(o topoQueue) bool { return o.name == name })
	if i < 0 {
		t.queues = append(t.queues, q)
		return
	}
	if err := t.conflictingQueues(t.queues[i], q); err != nil {
		t.problems = append(t.problems, err)
	}
}

// conflictingQueues reports two declarations of one queue name that differ,
// naming both TTLs when those differ (two rungs of one name) and both
// argument lists otherwise; nil when they declare the same queue.
func (t *Topology) conflictingQueues(first, second topoQueue) error {
	a, b := t.describeQueue(first), t.describeQueue(second)
	if a == b {
		return nil
	}
	ttlA, ttlB := t.queueTTL(first), t.queueTTL(second)
	if ttlA != ttlB {
		return fmt.Errorf("acemq: queue %q is declared twice with different TTLs, %s and %s; a retry rung holds a message for one wait only", first.name, ttlA, ttlB)
	}
	return fmt.Errorf("acemq: queue %q is declared twice with different arguments, (%s) and (%s)", first.name, a, b)
}

// queueTTL renders q's x-message-ttl ("1500 ms", or "no TTL").
func (t *Topology) queueTTL(q topoQueue) string {
	spec, err := buildQueueSpec(t.queueOptions(q))
	if ttl, ok := spec.Args[driver.ArgMessageTTL]; err == nil && ok {
		return fmt.Sprintf("%v ms", ttl)
	}
	return "no TTL"
}

func (t *Topology) addLibraryBinding(queue, exchange, key string) {
	b := topoBinding{queue: queue, exchange: exchange, key: key}
	if !slices.ContainsFunc(t.bindings, b.same) {
		t.bindings = append(t.bindings, b)
	}
}

func (b topoBinding) same(o topoBinding) bool {
	return b.queue == o.queue && b.exchange == o.exchange && b.key == o.key
}

// consumerTopology is what Consume declares for queue with policy p (zero =
// DefaultRetryPolicy): the dead-letter half and, when p has broker waits, the
// retry half, but never queue itself, which Consume only reads.
func consumerTopology(queue string, p RetryPolicy, setAside QueueType) *Topology {
	if p.IsZero() {
		p = DefaultRetryPolicy()
	}
	t := NewTopology()
	t.external[queue] = true
	if setAside != "" {
		t.setAside[queue] = setAside
	}
	t.halves = append(t.halves, queue)
	t.addDeadLetterHalf(queue)
	return t.Retries(queue, p)
}

// declaredOptions is queueOptions with, for a set-aside queue applied
// through a Conn with SetAsideQueuesOfType, that type.
func (t *Topology) declaredOptions(d declarer, q topoQueue) []QueueOption {
	opts := t.queueOptions(q)
	c, ok := d.(*Conn)
	if !ok || c.cfg.setAsideType == "" {
		return opts
	}
	if source, ok := t.setAsideOf(q.name); !ok || t.setAside[source] != "" {
		return opts
	}
	return append(slices.Clip(opts), OfType(c.cfg.setAsideType))
}

// setAsideOf returns the queue whose {queue}.dlq or {queue}.parked name is,
// when it is one of a dead-letter half of t.
func (t *Topology) setAsideOf(name string) (string, bool) {
	for _, q := range t.deadLetterHalves() {
		if name == DeadLetterQueue(q) || name == ParkedQueue(q) {
			return q, true
		}
	}
	return "", false
}

// deadLetterHalves returns every queue whose dead-letter half t adds.
func (t *Topology) deadLetterHalves() []string {
	return append(slices.Clip(t.deadLetters), t.halves...)
}

// queueOptions returns the options q is declared with, including the
// DeadLetters stamp.
func (t *Topology) queueOptions(q topoQueue) []QueueOption {
	if !slices.Contains(t.deadLetters, q.name) {
		return q.opts
	}
	return append(slices.Clip(q.opts),
		QueueArg(driver.ArgDeadLetterExchange, DeadLetterExchange),
		QueueArg(driver.ArgDeadLetterRoutingKey, DeadLetterQueue(q.name)))
}

// declarer is what a topology is applied through; *Conn is one.
type declarer interface {
	DeclareExchange(ctx context.Context, name, kind string, opts ...ExchangeOption) error
	DeclareQueue(ctx context.Context, name string, opts ...QueueOption) error
	Bind(ctx context.Context, queue, exchange, key string) error
}

// applyTo validates t and declares its exchanges, then its queues, then its
// bindings, stopping at the first failure. An invalid topology declares nothing.
func (t *Topology) applyTo(ctx context.Context, d declarer) error {
	if err := t.Validate(); err != nil {
		return err
	}
	if err := t.applyExchanges(ctx, d); err != nil {
		return err
	}
	if err := t.applyQueues(ctx, d); err != nil {
		return err
	}
	return t.applyBindings(ctx, d)
}

func (t *Topology) applyExchanges(ctx context.Context, d declarer) error {
	for _, e := range t.exchanges {
		if err := d.DeclareExchange(ctx, e.name, e.kind, e.opts...); err != nil {
			return err
		}
	}
	return nil
}

func (t *Topology) applyQueues(ctx context.Context, d declarer) error {
	for _, q := range t.queues {
		if err := d.DeclareQueue(ctx, q.name, t.declaredOptions(d, q)...); err != nil {
			return err
		}
	}
	return nil
}

func (t *Topology) applyBindings(ctx context.Context, d declarer) error {
	for _, b := range t.bindings {
		if err := d.Bind(ctx, b.queue, b.exchange, b.key); err != nil {
			return err
		}
	}
	return nil
}

// Plan returns one line per declaration, in the order Apply makes them:
// exchanges, then queues, then bindings, each in the order they were added.
func (t *Topology) Plan() []string {
	lines := make([]string, 0, len(t.exchanges)+len(t.queues)+len(t.bindings))
	for _, e := range t.exchanges {
		lines = append(lines, "declare exchange "+e.name+" ("+t.describeExchange(e)+")")
	}
	for _, q := range t.queues {
		lines = append(lines, "declare queue "+q.name+" ("+t.describeQueue(q)+")")
	}
	for _, b := range t.bindings {
		lines = append(lines, "bind "+b.String())
	}
	return lines
}

// String summarises t and lists its Plan, one declaration per line, such as
// "Topology: 1 exchanges, 2 queues, 2 bindings". The output is deterministic.
func (t *Topology) String() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "Topology: %d exchanges, %d queues, %d bindings", len(t.exchanges), len(t.queues), len(t.bindings))
	for _, line := range t.Plan() {
		sb.WriteString("\n  " + line)
	}
	return sb.String()
}

func (t *Topology) describeExchange(e topoExchange) string {
	spec, err := buildExchangeSpec(e.kind, e.opts)
	if err != nil {
		return "invalid: " + err.Error()
	}
	parts := []string{spec.Kind, durability(spec.Durable)}
	if spec.AutoDelete {
		parts = append(parts, "auto-delete")
	}
	return strings.Join(append(parts, describeArgs(spec.Args)...), ", ")
}

func (t *Topology) describeQueue(q topoQueue) string {
	spec, err := buildQueueSpec(t.queueOptions(q))
	if err != nil {
		return "invalid: " + err.Error()
	}
	parts := []string{durability(spec.Durable)}
	if spec.Exclusive {
		parts = append(parts, "exclusive")
	}
	if spec.AutoDelete {
		parts = append(parts, "auto-delete")
	}
	parts = append(parts, queueTypeOf(spec))
	return strings.Join(append(parts, describeArgs(spec.Args)...), ", ")
}

func durability(durable bool) string {
	if durable {
		return "durable"
	}
	return "transient"
}

// queueTypeOf names a settled spec's queue type; no x-queue-type is classic.
func queueTypeOf(spec driver.QueueSpec) string {
	if t, ok := spec.Args[driver.ArgQueueType]; ok {
		return fmt.Sprint(t)
	}
	return string(QueueClassic)
}

func describeArgs(args map[string]any) []string {
	out := []string{}
	for _, k := range slices.Sorted(maps.Keys(args)) {
		if k != driver.ArgQueueType {
			out = append(out, fmt.Sprintf("%s=%v", k, args[k]))
		}
	}
	return out
}

// errNotDeclared is the family's wording for a reference to an object the
// topology does not declare.
func errNotDeclared(b topoBinding, what, name string) error {
	return fmt.Errorf("acemq: binding %s names %s %q, which this topology does not declare", b, what, name)
}

// Validate reports every problem with t, joined (errors.Join): an exchange
// without a name or kind, a queue or exchange declared twice, an invalid
// option (a queue declared twice with different TTLs or arguments names
// both), a binding to the default exchange or to a queue or exchange this
// topology does not declare (amq.* exchanges are the broker's own), and
// DeadLetters on an undeclared queue or one that also has DeadLetterTo.
func (t *Topology) Validate() error {
	problems := slices.Clone(t.problems)
	problems = append(problems, t.validateExchanges()...)
	problems = append(problems, t.validateQueues()...)
	problems = append(problems, t.validateBindings()...)
	problems = append(problems, t.validateDeadLetters()...)
	return errors.Join(problems...)
}

func (t *Topology) validateExchanges() []error {
	var problems []error
	seen := map[string]bool{}
	for _, e := range t.exchanges {
		if err := checkExchange(e, seen[e.name]); err != nil {
			problems = append(problems, err)
		}
		seen[e.name] = true
	}
	return problems
}

func checkExchange(e topoExchange, seen bool) error {
	switch {
	case e.name == "":
		return errors.New("acemq: an exchange needs a name; the default exchange is the broker's and cannot be declared")
	case seen:
		return fmt.Errorf("acemq: exchange %q is declared twice", e.name)
	case e.kind == "":
		return fmt.Errorf("acemq: exchange %q has no kind; use direct, topic, fanout or headers", e.name)
	}
	if _, err := buildExchangeSpec(e.kind, e.opts); err != nil {
		return fmt.Errorf("%w (exchange %q)", err, e.name)
	}
	return nil
}

func (t *Topology) validateQueues() []error {
	var problems []error
	first := map[string]topoQueue{}
	for _, q := range t.queues {
		prev, seen := first[q.name]
		if err := t.checkQueue(q, prev, seen); err != nil {
			problems = append(problems, err)
		}
		if !seen {
			first[q.name] = q
		}
	}
	return problems
}

// checkQueue reports what is wrong with q; prev is the first queue of its
// name when seen.
func (t *Topology) checkQueue(q, prev topoQueue, seen bool) error {
	switch {
	case q.name == "":
		return errors.New("acemq: a queue needs a name")
	case seen:
		if err := t.conflictingQueues(prev, q); err != nil {
			return err
		}
		return fmt.Errorf("acemq: queue %q is declared twice", q.name)
	}
	if _, err := buildQueueSpec(t.queueOptions(q)); err != nil {
		return fmt.Errorf("%w (queue %q)", err, q.name)
	}
	return nil
}

func (t *Topology) validateBindings() []error {
	var problems []error
	for i, b := range t.bindings {
		if slices.ContainsFunc(t.bindings[:i], b.same) {
			problems = append(problems, fmt.Errorf("acemq: binding %s is declared twice", b))
		}
		if err := t.validateBinding(b); err != nil {
			problems = append(problems, err)
		}
	}
	return problems
}

func (t *Topology) validateBinding(b topoBinding) error {
	switch {
	case b.exchange == "":
		return fmt.Errorf("acemq: binding %s names the default exchange, which takes no bindings: it already routes to every queue by the queue's name", b)
	case !t.declaresQueue(b.queue):
		return errNotDeclared(b, "queue", b.queue)
	case !t.declaresExchange(b.exchange):
		return errNotDeclared(b, "exchange", b.exchange)
	}
	return nil
}

func (t *Topology) validateDeadLetters() []error {
	var problems []error
	for _, name := range t.deadLetters {
		i := slices.IndexFunc(t.queues, func(q topoQueue) bool { return q.name == name })
		if i < 0 {
			problems = append(problems, fmt.Errorf("acemq: DeadLetters names queue %q, which this topology does not declare", name))
			continue
		}
		if spec, err := buildQueueSpec(t.queues[i].opts); err == nil && spec.Args[driver.ArgDeadLetterExchange] != nil {
			problems = append(problems, fmt.Errorf("acemq: queue %q asks for both DeadLetterTo and DeadLetters; choose one", name))
		}
	}
	return problems
}

func (t *Topology) declaresQueue(name string) bool {
	return t.external[name] || slices.ContainsFunc(t.queues, func(q topoQueue) bool { return q.name == name })
}

func (t *Topology) declaresExchange(name string) bool {
	return strings.HasPrefix(name, "amq.") ||
		slices.ContainsFunc(t.exchanges, func(e topoExchange) bool { return e.name == name })
}

// Apply validates t and declares it on conn: exchanges, then queues, then
// bindings, stopping at the first failure. An invalid topology declares
// nothing. Declarations are idempotent, so applying twice is safe. It then
// binds again the queues of conn's running consumers to the exchanges t
// declares, as they were bound through conn: an exchange deleted and
// declared again (by this Apply) has lost its bindings, and the consumers
// would otherwise receive nothing.
func (t *Topology) Apply(ctx context.Context, conn *Conn) error {
	if err := t.applyTo(ctx, conn); err != nil {
		return err
	}
	return conn.rebindConsumers(ctx, t.exchangeNames(), t.bindings)
}

// exchangeNames returns the names of the exchanges t declares.
func (t *Topology) exchangeNames() map[string]bool {
	names := make(map[string]bool, len(t.exchanges))
	for _, e := range t.exchanges {
		names[e.name] = true
	}
	return names
}
