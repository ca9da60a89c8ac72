package acemq

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

type contractFixtures struct {
	GeneratedBy        string `json:"generatedBy"`
	DefaultThresholdMs int64  `json:"defaultBrokerWaitThresholdMillis"`
	DeadLetterExchange string `json:"deadLetterExchange"`
	RetryExchange      string `json:"retryExchange"`
	RetrySchedules     []struct {
		Name         string  `json:"name"`
		How          string  `json:"how"`
		MaxAttempts  int     `json:"maxAttempts"`
		MaxAgeMs     int64   `json:"maxMessageAgeMillis"`
		HasMaxAge    bool    `json:"hasMaxMessageAge"`
		JitterFactor float64 `json:"jitterFactor"`
		ThresholdMs  int64   `json:"brokerWaitThresholdMillis"`
		ScheduleMs   []int64 `json:"scheduleMillis"`
		RungDelaysMs []int64 `json:"brokerRungDelaysMillis"`
		Decisions    []struct {
			Attempt int   `json:"attempt"`
			AgeMs   int64 `json:"messageAgeMillis"`
			Retries bool  `json:"retries"`
		} `json:"decisions"`
	} `json:"retrySchedules"`
	MaxMessageAge struct {
		DefaultMs         int64 `json:"defaultMillis"`
		ZeroMeansNoLimit  bool  `json:"zeroMeansNoLimit"`
		UnknownAgeRetries bool  `json:"unknownAgeRetries"`
		Cases             []struct {
			MaxAgeMs int64 `json:"maxMessageAgeMillis"`
			AgeMs    int64 `json:"messageAgeMillis"`
			Retries  bool  `json:"retries"`
		} `json:"cases"`
	} `json:"maxMessageAge"`
	Jitter struct {
		Policy          string  `json:"policy"`
		Factor          float64 `json:"factor"`
		MinMultiplier   float64 `json:"minMultiplier"`
		MaxMultiplier   float64 `json:"maxMultiplier"`
		ConsumerWaits   bool    `json:"appliesToConsumerWaits"`
		BrokerWaits     bool    `json:"appliesToBrokerWaits"`
		FlooredAtMillis int64   `json:"flooredAtMillis"`
	} `json:"jitter"`
	BrokerWaitThreshold struct {
		DefaultMs int64 `json:"defaultMillis"`
		Cases     []struct {
			ThresholdMs int64 `json:"thresholdMillis"`
			DelayMs     int64 `json:"delayMillis"`
			InBroker    bool  `json:"waitsInBroker"`
		} `json:"cases"`
	} `json:"brokerWaitThreshold"`
	Naming struct {
		Queue           string `json:"queue"`
		DeadLetterQueue string `json:"deadLetterQueue"`
		ParkedQueue     string `json:"parkedQueue"`
		RetryQueues     []struct {
			DelayMs int64  `json:"delayMillis"`
			Queue   string `json:"queue"`
		} `json:"retryQueues"`
		SubSecondDisagreement string `json:"subSecondDisagreement"`
	} `json:"naming"`
	RungArguments []struct {
		Queue     string         `json:"queue"`
		DelayMs   int64          `json:"delayMillis"`
		Arguments map[string]any `json:"arguments"`
	} `json:"rungArguments"`
	Topology          fixtureTopology `json:"topology"`
	QueueTypeDefaults map[string]any  `json:"queueTypeDefaults"`
}

type fixtureTopology struct {
	SourceQueue      string  `json:"sourceQueue"`
	Policy           string  `json:"policy"`
	PolicyScheduleMs []int64 `json:"policyScheduleMillis"`
	PolicyRungsMs    []int64 `json:"policyRungDelaysMillis"`
	Exchanges        []struct {
		Name       string `json:"name"`
		Type       string `json:"type"`
		Durable    bool   `json:"durable"`
		DeclaredBy string `json:"declaredBy"`
	} `json:"exchanges"`
	Queues []struct {
		Name       string         `json:"name"`
		Type       string         `json:"type"`
		Durable    bool           `json:"durable"`
		Arguments  map[string]any `json:"arguments"`
		DeclaredBy string         `json:"declaredBy"`
	} `json:"queues"`
	Bindings []struct {
		Queue      string `json:"queue"`
		Exchange   string `json:"exchange"`
		RoutingKey string `json:"routingKey"`
		DeclaredBy string `json:"declaredBy"`
	} `json:"bindings"`
}

func loadContractFixtures(t *testing.T) contractFixtures {
	t.Helper()
	raw, err := os.ReadFile("../../testdata/vectors/contract-fixtures.json")
	if err != nil {
		t.Fatalf("the contract fixtures must be present: %v", err)
	}
	var fx contractFixtures
	if err := json.Unmarshal(raw, &fx); err != nil {
		t.Fatalf("contract fixtures: %v", err)
	}
	if fx.GeneratedBy != "acemq-java-amqp ContractFixtures" {
		t.Fatalf("unexpected fixture file: generatedBy %q", fx.GeneratedBy)
	}
	return fx
}

var (
	howFactory  = regexp.MustCompile(`^(exponential|fixed|none)\(([^)]*)\)`)
	howModifier = regexp.MustCompile(`^\.(giveUpAfter)\(([^)]*)\)`)
)

// parseHow reads the fixture's spelling of a policy, such as
// "exponential(5, 1s, 24h).giveUpAfter(2m)" or "none()".
func parseHow(t *testing.T, how string) RetryPolicy {
	t.Helper()
	m := howFactory.FindStringSubmatch(how)
	if m == nil {
		t.Fatalf("cannot read policy %q", how)
	}
	p := howPolicy(t, m[1], splitArgs(m[2]))
	for rest := how[len(m[0]):]; rest != ""; {
		mm := howModifier.FindStringSubmatch(rest)
		if mm == nil {
			t.Fatalf("cannot read modifier %q of %q", rest, how)
		}
		p = p.GiveUpAfter(mustDuration(t, mm[2]))
		rest = rest[len(mm[0]):]
	}
	return p
}

func splitArgs(s string) []string {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	parts := strings.Split(s, ",")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

func howPolicy(t *testing.T, factory string, args []string) RetryPolicy {
	t.Helper()
	switch factory {
	case "none":
		return NoRetry()
	case "fixed":
		return FixedRetry(mustInt(t, args[0]), mustDuration(t, args[1]))
	}
	return ExponentialRetry(mustInt(t, args[0]), mustDuration(t, args[1]), mustDuration(t, args[2]))
}

func mustInt(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func mustDuration(t *testing.T, s string) time.Duration {
	t.Helper()
	d, err := time.ParseDuration(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func ms(n int64) time.Duration { return time.Duration(n) * time.Millisecond }

func millis(ds []time.Duration) []int64 {
	out := make([]int64, len(ds))
	for i, d := range ds {
		out[i] = d.Milliseconds()
	}
	return out
}

func TestContractExchangeNamesAndDefaultThresholdMatchTheFamily(t *testing.T) {
	fx := loadContractFixtures(t)
	if DeadLetterExchange != fx.DeadLetterExchange || RetryExchange != fx.RetryExchange {
		t.Errorf("exchanges %q %q, fixture %q %q", DeadLetterExchange, RetryExchange, fx.DeadLetterExchange, fx.RetryExchange)
	}
	if defaultBrokerWaitThreshold != ms(fx.DefaultThresholdMs) || defaultBrokerWaitThreshold != ms(fx.BrokerWaitThreshold.DefaultMs) {
		t.Errorf("defaultBrokerWaitThreshold = %s, fixture %d ms", defaultBrokerWaitThreshold, fx.DefaultThresholdMs)
	}
}

func TestContractRetrySchedulesReproduceEveryNumber(t *testing.T) {
	for _, s := range loadContractFixtures(t).RetrySchedules {
		t.Run(s.Name, func(t *testing.T) {
			p := parseHow(t, s.How)
			if err := p.Validate(); err != nil {
				t.Fatal(err)
			}
			if p.MaxAttempts != s.MaxAttempts || p.JitterFactor != s.JitterFactor ||
				p.BrokerWaitThreshold != ms(s.ThresholdMs) || p.MaxMessageAge != ms(s.MaxAgeMs) ||
				(p.MaxMessageAge > 0) != s.HasMaxAge {
				t.Errorf("policy %+v does not match the fixture %+v", p, s)
			}
			if got := millis(p.Schedule()); !slices.Equal(got, s.ScheduleMs) {
				t.Errorf("Schedule = %v, fixture %v", got, s.ScheduleMs)
			}
			if got := millis(p.BrokerRungs()); !slices.Equal(got, s.RungDelaysMs) {
				t.Errorf("BrokerRungs = %v, fixture %v", got, s.RungDelaysMs)
			}
		})
	}
}

// TestContractSchedulesAgreeWithAnIndependentDerivation re-derives every
// fixture schedule and rung list from the factory arguments alone.
func TestContractSchedulesAgreeWithAnIndependentDerivation(t *testing.T) {
	for _, s := range loadContractFixtures(t).RetrySchedules {
		p := parseHow(t, s.How)
		var sched, rungs []int64
		d := p.InitialDelay.Milliseconds()
		for i := 1; i < s.MaxAttempts; i++ {
			step := d
			if p.MaxDelay > 0 && step > p.MaxDelay.Milliseconds() {
				step = p.MaxDelay.Milliseconds()
			}
			sched = append(sched, step)
			if step >= s.ThresholdMs && !slices.Contains(rungs, step) {
				rungs = append(rungs, step)
			}
			d = int64(float64(d) * p.Multiplier)
		}
		if !slices.Equal(sched, s.ScheduleMs) && len(sched)+len(s.ScheduleMs) > 0 {
			t.Errorf("%s: derived schedule %v, fixture %v", s.Name, sched, s.ScheduleMs)
		}
		if !slices.Equal(rungs, s.RungDelaysMs) && len(rungs)+len(s.RungDelaysMs) > 0 {
			t.Errorf("%s: derived rungs %v, fixture %v", s.Name, rungs, s.RungDelaysMs)
		}
	}
}

func TestContractRetryDecisionsIncludingTheAgeBoundary(t *testing.T) {
	for _, s := range loadContractFixtures(t).RetrySchedules {
		p := parseHow(t, s.How)
		for _, d := range s.Decisions {
			if got := p.Retries(d.Attempt, ms(d.AgeMs)); got != d.Retries {
				t.Errorf("%s: Retries(%d, %d ms) = %v, fixture %v", s.Name, d.Attempt, d.AgeMs, got, d.Retries)
			}
		}
	}
}

func TestContractMessageAgeRuleTable(t *testing.T) {
	fx := loadContractFixtures(t).MaxMessageAge
	for _, c := range fx.Cases {
		p := ExponentialRetry(5, time.Second, time.Minute).GiveUpAfter(ms(c.MaxAgeMs))
		if got := p.Retries(1, ms(c.AgeMs)); got != c.Retries {
			t.Errorf("limit %d ms, age %d ms: Retries = %v, fixture %v", c.MaxAgeMs, c.AgeMs, got, c.Retries)
		}
	}
	limited := NoRetry().GiveUpAfter(time.Minute)
	limited.MaxAttempts = 3
	if got := limited.Retries(1, -1); got != fx.UnknownAgeRetries {
		t.Errorf("unknown age: Retries = %v, fixture %v", got, fx.UnknownAgeRetries)
	}
}

// TestContractEveryFactoryLeavesMessageAgeUnlimited records that this copy of
// the fixtures gives no default age limit (defaultMillis 0, zero means none),
// which is also the Go library's behaviour.
func TestContractEveryFactoryLeavesMessageAgeUnlimited(t *testing.T) {
	fx := loadContractFixtures(t).MaxMessageAge
	if fx.DefaultMs != 0 || !fx.ZeroMeansNoLimit {
		t.Fatalf("fixture changed: default %d ms, zero means no limit %v", fx.DefaultMs, fx.ZeroMeansNoLimit)
	}
	for _, p := range []RetryPolicy{NoRetry(), FixedRetry(3, time.Second), ExponentialRetry(3, time.Second, 0), DefaultRetryPolicy()} {
		if p.MaxMessageAge != ms(fx.DefaultMs) {
			t.Errorf("%v: MaxMessageAge = %s, want no limit", p, p.MaxMessageAge)
		}
		if oldest := 100 * 365 * 24 * time.Hour; p.MaxAttempts > 1 && !p.Retries(1, oldest) {
			t.Errorf("%v gave up on a message for its age alone", p)
		}
	}
}

func TestContractJitterStaysWithinBoundsAndAboveTheFloor(t *testing.T) {
	fx := loadContractFixtures(t)
	j := fx.Jitter
	p := parseHow(t, fx.RetrySchedules[0].How)
	if fx.RetrySchedules[0].Name != j.Policy || p.JitterFactor != j.Factor || !j.ConsumerWaits || j.BrokerWaits {
		t.Fatalf("fixture jitter section changed: %+v", j)
	}
	for _, d := range p.Schedule() {
		lo, hi := time.Duration(float64(d)*j.MinMultiplier), time.Duration(float64(d)*j.MaxMultiplier)
		for range 200 {
			if got := p.Jitter(d); got < lo || got > hi {
				t.Fatalf("Jitter(%s) = %s, outside [%s, %s]", d, got, lo, hi)
			}
		}
	}
	for _, d := range []time.Duration{0, time.Microsecond, 500 * time.Microsecond} {
		if got := p.Jitter(d); got < ms(j.FlooredAtMillis) {
			t.Errorf("Jitter(%s) = %s, below the %d ms floor", d, got, j.FlooredAtMillis)
		}
	}
}

func TestContractBrokerWaitsAreNeverJittered(t *testing.T) {
	fx := loadContractFixtures(t)
	p := parseHow(t, fx.RetrySchedules[1].How) // exponential-capped: rungs 40s, 60s
	for _, d := range p.BrokerRungs() {
		if !p.WaitsInBroker(d) || RungQueue("q", p.RungFor(d)) != RungQueue("q", d) {
			t.Errorf("a broker wait of %s must land exactly on its own rung, got rung %s", d, p.RungFor(d))
		}
	}
}

func TestContractBrokerWaitThresholdTable(t *testing.T) {
	for _, c := range loadContractFixtures(t).BrokerWaitThreshold.Cases {
		p := DefaultRetryPolicy().WaitInBrokerFrom(ms(c.ThresholdMs))
		if got := p.WaitsInBroker(ms(c.DelayMs)); got != c.InBroker {
			t.Errorf("threshold %d ms, delay %d ms: WaitsInBroker = %v, fixture %v", c.ThresholdMs, c.DelayMs, got, c.InBroker)
		}
	}
}

func TestContractQueueNames(t *testing.T) {
	n := loadContractFixtures(t).Naming
	if DeadLetterQueue(n.Queue) != n.DeadLetterQueue || ParkedQueue(n.Queue) != n.ParkedQueue {
		t.Errorf("dlq %q parked %q, fixture %q %q", DeadLetterQueue(n.Queue), ParkedQueue(n.Queue), n.DeadLetterQueue, n.ParkedQueue)
	}
	for _, r := range n.RetryQueues {
		if got := RungQueue(n.Queue, ms(r.DelayMs)); got != r.Queue {
			t.Errorf("RungQueue(%d ms) = %q, fixture %q", r.DelayMs, got, r.Queue)
		}
	}
}

// TestContractSubSecondRungNamesDisagreeAcrossLanguages records the family's
// open disagreement: Java names a 500 ms rung .retry.500ms, the Go, Python and
// Ruby libraries .retry.0s. Rounding down lets two delays share a rung (1s and
// 1500ms both became .retry.1s, and the topology kept whichever came first),
// so here we leave the Go column and follow Java: see
// TestRungNamesSpellWholeSecondsLikeTheFamilyAndAnythingElseInMilliseconds.
func TestContractSubSecondRungNamesDisagreeAcrossLanguages(t *testing.T) {
	n := loadContractFixtures(t).Naming
	if !strings.Contains(n.SubSecondDisagreement, "orders.new.retry.0s") {
		t.Fatalf("the fixture no longer records the disagreement: %q", n.SubSecondDisagreement)
	}
	var subSecond int
	for _, r := range n.RetryQueues {
		if r.DelayMs >= 1000 {
			continue
		}
		subSecond++
		java, ours := r.Queue, RungQueue(n.Queue, ms(r.DelayMs))
		if java != "orders.new.retry.500ms" || ours != java {
			t.Errorf("Java %q, ours %q: want both orders.new.retry.500ms (the Go library's orders.new.retry.0s is not followed)", java, ours)
		}
	}
	if subSecond != 1 {
		t.Errorf("%d sub-second rungs in the fixture, want 1", subSecond)
	}
}

// TestRungNamesSpellWholeSecondsLikeTheFamilyAndAnythingElseInMilliseconds
// records the spelling chosen where the family disagrees: a whole number of
// seconds keeps the family's spelling (every library agrees on it), any other
// delay is spelled exactly in milliseconds, the Java library's spelling.
func TestRungNamesSpellWholeSecondsLikeTheFamilyAndAnythingElseInMilliseconds(t *testing.T) {
	for d, want := range map[time.Duration]string{
		time.Second: "orders.new.retry.1s", 30 * time.Second: "orders.new.retry.30s",
		time.Minute: "orders.new.retry.1m", 90 * time.Second: "orders.new.retry.90s", time.Hour: "orders.new.retry.1h",
		500 * time.Millisecond: "orders.new.retry.500ms", 1500 * time.Millisecond: "orders.new.retry.1500ms",
		61500 * time.Millisecond: "orders.new.retry.61500ms", time.Millisecond: "orders.new.retry.1ms",
	} {
		if got := RungQueue("orders.new", d); got != want {
			t.Errorf("RungQueue(%s) = %q, want %q", d, got, want)
		}
	}
}

func TestContractRungArgumentTables(t *testing.T) {
	fx := loadContractFixtures(t)
	for _, r := range fx.RungArguments {
		got := RungArgs(fx.Naming.Queue, ms(r.DelayMs))
		if fmt.Sprint(normalise(got)) != fmt.Sprint(normalise(r.Arguments)) {
			t.Errorf("%s: RungArgs = %v, fixture %v", r.Queue, got, r.Arguments)
		}
		if RungQueue(fx.Naming.Queue, ms(r.DelayMs)) != r.Queue {
			t.Errorf("RungQueue(%d ms) = %q, fixture %q", r.DelayMs, RungQueue(fx.Naming.Queue, ms(r.DelayMs)), r.Queue)
		}
		if _, isInt64 := got[driver.ArgMessageTTL].(int64); !isInt64 || len(got) != 3 {
			t.Errorf("%s: want exactly 3 arguments with an int64 TTL, got %#v", r.Queue, got)
		}
	}
}

// fixtureQueueType reads the fixture's type column from a settled spec.
func fixtureQueueType(spec driver.QueueSpec) string { return queueTypeOf(spec) }

// topologyContents renders every object of t as the fixture spells it.
func topologyContents(t *testing.T, topo *Topology) (exchanges, queues, bindings map[string]string) {
	t.Helper()
	exchanges, queues, bindings = map[string]string{}, map[string]string{}, map[string]string{}
	for _, e := range topo.exchanges {
		spec, err := buildExchangeSpec(e.kind, e.opts)
		if err != nil {
			t.Fatal(err)
		}
		exchanges[e.name] = fmt.Sprintf("%s durable=%v", spec.Kind, spec.Durable)
	}
	for _, q := range topo.queues {
		spec, err := buildQueueSpec(topo.queueOptions(q))
		if err != nil {
			t.Fatal(err)
		}
		args := maps.Clone(spec.Args)
		delete(args, driver.ArgQueueType)
		queues[q.name] = fmt.Sprintf("%s durable=%v %v", fixtureQueueType(spec), spec.Durable, normalise(args))
	}
	for _, b := range topo.bindings {
		bindings[b.String()] = b.key
	}
	return exchanges, queues, bindings
}

func fixtureTopologyPolicy(t *testing.T, ft fixtureTopology) RetryPolicy {
	t.Helper()
	if ft.Policy != "exponential(6, 10s, 5m) at the default threshold" {
		t.Fatalf("fixture policy changed: %q", ft.Policy)
	}
	p := ExponentialRetry(6, 10*time.Second, 5*time.Minute)
	if !slices.Equal(millis(p.Schedule()), ft.PolicyScheduleMs) || !slices.Equal(millis(p.BrokerRungs()), ft.PolicyRungsMs) {
		t.Fatalf("schedule %v rungs %v, fixture %v %v", p.Schedule(), p.BrokerRungs(), ft.PolicyScheduleMs, ft.PolicyRungsMs)
	}
	return p
}

// TestContractTopologyForTheFixtureQueueWithDeclaredBy builds what a service
// declares (Topology: app exchange, source queue, binding, DeadLetters) and
// what its consumer declares (consumerTopology), and checks every fixture
// object lands in exactly the halves its declaredBy names.
func TestContractTopologyForTheFixtureQueueWithDeclaredBy(t *testing.T) {
	ft := loadContractFixtures(t).Topology
	p := fixtureTopologyPolicy(t, ft)
	q := ft.SourceQueue
	service := NewTopology().Exchange("orders", "topic").Queue(q).Binding(q, "orders", "order.*").DeadLetters(q)
	if err := service.Validate(); err != nil {
		t.Fatal(err)
	}
	consumer := consumerTopology(q, p, "")
	if err := consumer.Validate(); err != nil {
		t.Fatal(err)
	}
	sx, sq, sb := topologyContents(t, service)
	cx, cq, cb := topologyContents(t, consumer)
	for _, e := range ft.Exchanges {
		want := fmt.Sprintf("%s durable=%v", e.Type, e.Durable)
		checkDeclaredBy(t, "exchange "+e.Name, e.DeclaredBy, want, sx[e.Name], cx[e.Name])
	}
	for _, fq := range ft.Queues {
		want := fmt.Sprintf("%s durable=%v %v", fq.Type, fq.Durable, normalise(fq.Arguments))
		checkDeclaredBy(t, "queue "+fq.Name, fq.DeclaredBy, want, sq[fq.Name], cq[fq.Name])
	}
	for _, b := range ft.Bindings {
		key := topoBinding{queue: b.Queue, exchange: b.Exchange, key: b.RoutingKey}.String()
		checkDeclaredBy(t, "binding "+key, b.DeclaredBy, b.RoutingKey, sb[key], cb[key])
	}
	total := len(ft.Exchanges) + len(ft.Queues) + len(ft.Bindings)
	if n := countUnion(sx, cx) + countUnion(sq, cq) + countUnion(sb, cb); n != total {
		t.Errorf("the two halves declare %d objects, the fixture lists %d", n, total)
	}
}

func checkDeclaredBy(t *testing.T, what, by, want, inService, inConsumer string) {
	t.Helper()
	wantService := by == "topology" || by == "both"
	wantConsumer := by == "consumer" || by == "both"
	if (inService != "") != wantService || (inConsumer != "") != wantConsumer {
		t.Errorf("%s (declaredBy %s): in service topology %v, in consumer topology %v", what, by, inService != "", inConsumer != "")
	}
	for _, got := range []string{inService, inConsumer} {
		if got != "" && got != want {
			t.Errorf("%s: declared as %q, fixture %q", what, got, want)
		}
	}
}

func countUnion(a, b map[string]string) int {
	u := maps.Clone(a)
	maps.Copy(u, b)
	return len(u)
}

func TestContractRetriesAddsTheConsumerHalfToAServiceTopology(t *testing.T) {
	ft := loadContractFixtures(t).Topology
	p := fixtureTopologyPolicy(t, ft)
	q := ft.SourceQueue
	full := NewTopology().Exchange("orders", "topic").Queue(q).Binding(q, "orders", "order.*").DeadLetters(q).Retries(q, p)
	x, qs, b := topologyContents(t, full)
	if len(x) != len(ft.Exchanges) || len(qs) != len(ft.Queues) || len(b) != len(ft.Bindings) {
		t.Errorf("full topology has %d/%d/%d objects, fixture %d/%d/%d", len(x), len(qs), len(b), len(ft.Exchanges), len(ft.Queues), len(ft.Bindings))
	}
}

func TestContractQueueTypeDefaults(t *testing.T) {
	d := loadContractFixtures(t).QueueTypeDefaults
	const q = "orders.new"
	cases := map[string]*Topology{
		"sourceQueue":                        NewTopology().Queue(q),
		"sourceQueueWithDeadLetter":          NewTopology().Queue(q).DeadLetters(q),
		"explicitClassicQueue":               NewTopology().Queue(q, OfType(QueueClassic)),
		"explicitClassicQueueWithDeadLetter": NewTopology().Queue(q, OfType(QueueClassic)).DeadLetters(q),
	}
	for name, topo := range cases {
		_, queues, _ := topologyContents(t, topo)
		if got := strings.Fields(queues[q])[0]; got != d[name] {
			t.Errorf("%s: %s, fixture %v", name, got, d[name])
		}
	}
	checkEveryQueueDurable(t, d)
	_, queues, _ := topologyContents(t, consumerTopology(q, FixedRetry(2, time.Minute), ""))
	for name, queue := range map[string]string{"deadLetterQueue": DeadLetterQueue(q), "parkedQueue": ParkedQueue(q), "retryRung": RungQueue(q, time.Minute)} {
		if got := queues[queue]; !strings.HasPrefix(got, fmt.Sprint(d[name])+" durable=true") {
			t.Errorf("%s (%s): %q, fixture %v and durable", name, queue, got, d[name])
		}
	}
}

func checkEveryQueueDurable(t *testing.T, defaults map[string]any) {
	t.Helper()
	durability, _ := defaults["durability"].(map[string]any)
	if durability["everyDeclaredQueueIsDurable"] != true {
		t.Fatalf("fixture durability rule changed: %v", durability)
	}
	p := ExponentialRetry(6, 10*time.Second, 5*time.Minute)
	full := NewTopology().Queue("orders.new").DeadLetters("orders.new").Retries("orders.new", p)
	_, queues, _ := topologyContents(t, full)
	for name, q := range queues {
		if !strings.Contains(q, " durable=true ") {
			t.Errorf("queue %s is not durable: %s", name, q)
		}
	}
}
