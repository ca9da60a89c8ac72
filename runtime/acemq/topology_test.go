package acemq

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// recordingDeclarer records what a topology declares, failing on fail.
type recordingDeclarer struct {
	calls []string
	fail  string
}

func (r *recordingDeclarer) record(call string) error {
	r.calls = append(r.calls, call)
	if call == r.fail {
		return errors.New("refused")
	}
	return nil
}

func (r *recordingDeclarer) DeclareExchange(_ context.Context, name, kind string, opts ...ExchangeOption) error {
	spec, err := buildExchangeSpec(kind, opts)
	if err != nil {
		return err
	}
	return r.record(fmt.Sprintf("exchange %s %s %v", name, spec.Kind, spec.Durable))
}

func (r *recordingDeclarer) DeclareQueue(_ context.Context, name string, opts ...QueueOption) error {
	spec, err := buildQueueSpec(opts)
	if err != nil {
		return err
	}
	return r.record(fmt.Sprintf("queue %s %s %v", name, queueTypeOf(spec), spec.Args[driver.ArgDeadLetterRoutingKey]))
}

func (r *recordingDeclarer) Bind(_ context.Context, queue, exchange, key string) error {
	return r.record(fmt.Sprintf("bind %s %s %s", queue, exchange, key))
}

func ordersTopology() *Topology {
	return NewTopology().
		Exchange("orders", "topic").
		Queue("orders.new").
		Binding("orders.new", "orders", "order.*").
		DeadLetters("orders.new")
}

func TestTopologyStringSummarisesAndListsEveryObject(t *testing.T) {
	got := NewTopology().Exchange("orders", "topic").Queue("orders").Queue("audit", Transient()).
		Binding("orders", "orders", "order.*").Binding("audit", "orders", "#").String()
	want := strings.Join([]string{
		"Topology: 1 exchanges, 2 queues, 2 bindings",
		"  declare exchange orders (topic, durable)",
		"  declare queue orders (durable, quorum)",
		"  declare queue audit (transient, classic)",
		"  bind orders -> orders (order.*)",
		"  bind orders -> audit (#)",
	}, "\n")
	if got != want {
		t.Errorf("String() =\n%s\nwant\n%s", got, want)
	}
}

func TestTopologyPlanShowsTheDeadLetterStamp(t *testing.T) {
	plan := ordersTopology().Plan()
	want := "declare queue orders.new (durable, quorum, x-dead-letter-exchange=acemq.dlx, x-dead-letter-routing-key=orders.new.dlq)"
	if !slices.Contains(plan, want) || !slices.Contains(plan, "declare queue orders.new.dlq (durable, classic)") {
		t.Errorf("plan %q lacks the stamped source queue or the classic dlq", plan)
	}
}

func TestTopologyPlanIsDeterministic(t *testing.T) {
	build := func() string { return ordersTopology().Retries("orders.new", FixedRetry(4, time.Minute)).String() }
	if a, b := build(), build(); a != b {
		t.Errorf("two builds differ:\n%s\n%s", a, b)
	}
}

func TestValidateRefusesABindingToAnUndeclaredQueueWithTheFamilyMessage(t *testing.T) {
	err := NewTopology().Exchange("orders-events", "topic").
		Binding("a-queue-nobody-declared", "orders-events", "order.placed").Validate()
	want := `acemq: binding orders-events -> a-queue-nobody-declared (order.placed) names queue "a-queue-nobody-declared", which this topology does not declare`
	if err == nil || err.Error() != want {
		t.Errorf("err = %v\nwant %s", err, want)
	}
}

func TestValidateReportsEveryProblem(t *testing.T) {
	err := NewTopology().
		Exchange("kindless", "").
		Exchange("dup", "direct").Exchange("dup", "direct").
		Queue("q").Queue("q").
		Binding("q", "", "q").
		Binding("q", "nowhere", "k").
		Binding("q", "dup", "k").Binding("q", "dup", "k").
		Queue("bad", OfType("lazy")).
		DeadLetters("missing").
		Retries("q", RetryPolicy{}).
		Validate()
	for _, want := range []string{
		`exchange "kindless" has no kind`, `exchange "dup" is declared twice`, `queue "q" is declared twice`,
		`names the default exchange`, `names exchange "nowhere", which this topology does not declare`,
		`binding dup -> q (k) is declared twice`, `OfType needs classic, quorum or stream`,
		`DeadLetters names queue "missing"`, `RetryPolicy.MaxAttempts must be at least 1`,
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Validate() lacks %q:\n%v", want, err)
		}
	}
}

func TestValidateRefusesDeadLetterToTogetherWithDeadLetters(t *testing.T) {
	err := NewTopology().Queue("q", DeadLetterTo("mine")).DeadLetters("q").Validate()
	if err == nil || !strings.Contains(err.Error(), `queue "q" asks for both DeadLetterTo and DeadLetters`) {
		t.Errorf("err = %v", err)
	}
}

func TestValidateAcceptsTheBrokersOwnExchanges(t *testing.T) {
	if err := NewTopology().Queue("q").Binding("q", "amq.topic", "k").Validate(); err != nil {
		t.Errorf("binding to amq.topic refused: %v", err)
	}
}

func TestDeadLettersTwiceAddsItsObjectsOnce(t *testing.T) {
	topo := ordersTopology().DeadLetters("orders.new").Queue("b").DeadLetters("b")
	if err := topo.Validate(); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(topo.String(), "Topology: 2 exchanges, 6 queues, 5 bindings") {
		t.Errorf("String() = %s", topo)
	}
}

func TestRetriesWithoutBrokerWaitsAddsNothing(t *testing.T) {
	before := ordersTopology().String()
	if after := ordersTopology().Retries("orders.new", DefaultRetryPolicy()).String(); after != before {
		t.Errorf("a policy with no broker waits changed the topology:\n%s", after)
	}
}

func TestConsumerTopologyNeverDeclaresTheSourceQueue(t *testing.T) {
	topo := consumerTopology("orders.new", FixedRetry(3, time.Minute), "")
	if err := topo.Validate(); err != nil {
		t.Fatal(err)
	}
	d := &recordingDeclarer{}
	if err := topo.applyTo(context.Background(), d); err != nil {
		t.Fatal(err)
	}
	for _, c := range d.calls {
		if strings.HasPrefix(c, "queue orders.new ") {
			t.Errorf("consumer topology declared the source queue: %q", c)
		}
	}
	if !slices.Contains(d.calls, "queue orders.new.retry.1m classic orders.new") || !slices.Contains(d.calls, "bind orders.new acemq.retry orders.new") {
		t.Errorf("retry half missing from %q", d.calls)
	}
}

func TestConsumerTopologyWithNoPolicyUsesTheDefaultAndNeedsNoRungs(t *testing.T) {
	topo := consumerTopology("q", RetryPolicy{}, "")
	if err := topo.Validate(); err != nil || strings.Contains(topo.String(), RetryExchange) {
		t.Errorf("err %v, topology %s", err, topo)
	}
}

func TestApplyDeclaresExchangesThenQueuesThenBindings(t *testing.T) {
	d := &recordingDeclarer{}
	if err := ordersTopology().applyTo(context.Background(), d); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"exchange orders topic true", "exchange acemq.dlx direct true",
		"queue orders.new quorum orders.new.dlq", "queue orders.new.dlq classic <nil>", "queue orders.new.parked classic <nil>",
		"bind orders.new orders order.*", "bind orders.new.dlq acemq.dlx orders.new.dlq", "bind orders.new.parked acemq.dlx orders.new.parked",
	}
	if !slices.Equal(d.calls, want) {
		t.Errorf("calls\n%q\nwant\n%q", d.calls, want)
	}
}

func TestApplyOfAnInvalidTopologyTouchesNothing(t *testing.T) {
	d := &recordingDeclarer{}
	err := NewTopology().Exchange("x", "direct").Binding("nobody", "x", "k").applyTo(context.Background(), d)
	if err == nil || len(d.calls) != 0 {
		t.Errorf("err %v, calls %q", err, d.calls)
	}
}

func TestApplyStopsAtTheFirstFailure(t *testing.T) {
	d := &recordingDeclarer{fail: "queue orders.new quorum orders.new.dlq"}
	if err := ordersTopology().applyTo(context.Background(), d); err == nil || len(d.calls) != 3 {
		t.Errorf("err %v after calls %q", err, d.calls)
	}
}

// TestTopologyRefusesTwoRungsOfOneNameWithDifferentTTLs: a second rung of a
// name already declared with another TTL is a problem naming the queue and
// both TTLs, where the topology once kept the first and a retry waited the
// wrong time.
func TestTopologyRefusesTwoRungsOfOneNameWithDifferentTTLs(t *testing.T) {
	oneSecond := Rung{Queue: "orders.retry.1s", Delay: time.Second, Args: RungArgs("orders", time.Second)}
	roundedDown := Rung{Queue: "orders.retry.1s", Delay: 1500 * time.Millisecond, Args: RungArgs("orders", 1500*time.Millisecond)}
	topo := NewTopology().Queue("orders")
	topo.addLibraryQueue(oneSecond.Queue, rungOptions(oneSecond)...)
	topo.addLibraryQueue(roundedDown.Queue, rungOptions(roundedDown)...)
	wantTTLs(t, topo.Validate(), `"orders.retry.1s"`, "1000 ms", "1500 ms")

	userFirst := NewTopology().Queue("orders").
		Queue("orders.retry.1s", OfType(QueueClassic), QueueArg(driver.ArgMessageTTL, 1500)).
		Retries("orders", FixedRetry(2, time.Second).WaitInBrokerFrom(time.Second))
	wantTTLs(t, userFirst.Validate(), `"orders.retry.1s"`, "1500 ms", "1000 ms")

	userLast := NewTopology().Queue("orders").
		Retries("orders", FixedRetry(2, time.Second).WaitInBrokerFrom(time.Second)).
		Queue("orders.retry.1s", OfType(QueueClassic), QueueArg(driver.ArgMessageTTL, int64(1500)))
	wantTTLs(t, userLast.Validate(), `"orders.retry.1s"`, "1000 ms", "1500 ms")
}

func wantTTLs(t *testing.T, err error, parts ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("Validate = nil, want an error naming %q", parts)
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("Validate = %v, want it to name %s", err, p)
		}
	}
}

func TestTopologyRefusesALibraryQueueDeclaredWithOtherArguments(t *testing.T) {
	topo := NewTopology().Queue("orders").Queue("orders.dlq", QueueArg("x-max-length", 10)).DeadLetters("orders")
	err := topo.Validate()
	if err == nil || !strings.Contains(err.Error(), `queue "orders.dlq" is declared twice with different arguments`) {
		t.Fatalf("Validate = %v, want the two declarations of orders.dlq named", err)
	}
}

func TestTopologyAcceptsTheSameRungFromTwoPolicies(t *testing.T) {
	topo := NewTopology().Queue("orders").
		Retries("orders", FixedRetry(2, time.Minute)).
		Retries("orders", ExponentialRetry(5, 30*time.Second, time.Minute))
	if err := topo.Validate(); err != nil {
		t.Fatalf("Validate = %v, want the shared 1m rung declared once", err)
	}
}
