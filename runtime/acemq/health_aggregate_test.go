package acemq_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// fixedCheck answers status (and detail) at once, or runs fn when set.
type fixedCheck struct {
	name, status, detail string
	fn                   func(context.Context) acemq.HealthReport
}

func (c fixedCheck) Name() string { return c.name }

func (c fixedCheck) Check(ctx context.Context) acemq.HealthReport {
	if c.fn != nil {
		return c.fn(ctx)
	}
	return acemq.HealthReport{Status: c.status, Detail: c.detail}
}

func TestAggregateHealthWorstStatusWins(t *testing.T) {
	up, degraded, down := fixedCheck{name: "a", status: acemq.HealthUp},
		fixedCheck{name: "b", status: acemq.HealthDegraded}, fixedCheck{name: "c", status: acemq.HealthDown}
	cases := []struct {
		checks []acemq.HealthCheck
		want   string
	}{
		{nil, acemq.HealthUp},
		{[]acemq.HealthCheck{up, up}, acemq.HealthUp},
		{[]acemq.HealthCheck{up, degraded}, acemq.HealthDegraded},
		{[]acemq.HealthCheck{down, degraded, up}, acemq.HealthDown},
		{[]acemq.HealthCheck{degraded, down}, acemq.HealthDown},
		{[]acemq.HealthCheck{fixedCheck{name: "odd", status: "sideways"}, up}, acemq.HealthDown},
	}
	for i, c := range cases {
		if got := acemq.AggregateHealth(context.Background(), c.checks...).Status; got != c.want {
			t.Errorf("case %d: %q, want %q", i, got, c.want)
		}
	}
}

func TestAggregateHealthKeepsEachReportAsAPartAndNamesTheUnhealthy(t *testing.T) {
	r := acemq.AggregateHealth(context.Background(),
		fixedCheck{name: "broker", status: acemq.HealthUp},
		fixedCheck{name: "db", status: acemq.HealthDown, detail: "connection refused"},
		fixedCheck{name: "cache", status: acemq.HealthDegraded})
	if len(r.Parts) != 3 || r.Parts["db"].(acemq.HealthReport).Detail != "connection refused" ||
		r.Parts["broker"].(acemq.HealthReport).Status != acemq.HealthUp {
		t.Fatalf("parts %+v", r.Parts)
	}
	if r.Detail != "db is down: connection refused; cache is degraded" || r.Checked.IsZero() {
		t.Fatalf("detail %q checked %v", r.Detail, r.Checked)
	}
}

func TestAggregateHealthRunsChecksInParallel(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	aDone, bDone := make(chan struct{}), make(chan struct{})
	waitsFor := func(mine, theirs chan struct{}) fixedCheck {
		return fixedCheck{fn: func(ctx context.Context) acemq.HealthReport {
			close(mine)
			select {
			case <-theirs: // only reachable when both run at once
				return acemq.HealthReport{Status: acemq.HealthUp}
			case <-ctx.Done():
				return acemq.HealthReport{Status: acemq.HealthDown, Detail: "ran alone"}
			}
		}}
	}
	a, b := waitsFor(aDone, bDone), waitsFor(bDone, aDone)
	a.name, b.name = "a", "b"
	if r := acemq.AggregateHealth(ctx, a, b); r.Status != acemq.HealthUp {
		t.Fatalf("checks ran one after the other: %+v", r)
	}
}

func TestAggregateHealthCountsAPanickingOrNilCheckAsDown(t *testing.T) {
	boom := fixedCheck{name: "boom", fn: func(context.Context) acemq.HealthReport { panic("kaput") }}
	r := acemq.AggregateHealth(context.Background(), boom, nil, fixedCheck{name: "fine", status: acemq.HealthUp})
	if r.Status != acemq.HealthDown {
		t.Fatalf("status %q", r.Status)
	}
	if d := r.Parts["boom"].(acemq.HealthReport).Detail; d != "the check panicked: kaput" {
		t.Fatalf("boom: %q", d)
	}
	if d := r.Parts["check 2"].(acemq.HealthReport).Detail; d != "the health check is nil" {
		t.Fatalf("nil: %q", d)
	}
	if r.Parts["fine"].(acemq.HealthReport).Status != acemq.HealthUp {
		t.Fatal("a healthy check was dragged down")
	}
}

func TestAggregateHealthAnswersWhenTheContextEndsBeforeACheckDoes(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	stuck := fixedCheck{name: "stuck", fn: func(context.Context) acemq.HealthReport {
		<-release // ignores its context
		return acemq.HealthReport{Status: acemq.HealthUp}
	}}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := acemq.AggregateHealth(ctx, stuck)
	part := r.Parts["stuck"].(acemq.HealthReport)
	if r.Status != acemq.HealthDown || part.Detail != "the check did not answer: context canceled" {
		t.Fatalf("got %+v", r)
	}
}

func TestAggregateHealthNumbersRepeatedNames(t *testing.T) {
	r := acemq.AggregateHealth(context.Background(),
		fixedCheck{name: "db", status: acemq.HealthUp}, fixedCheck{name: "db", status: acemq.HealthDown})
	if r.Parts["db"].(acemq.HealthReport).Status != acemq.HealthUp || r.Parts["db#2"].(acemq.HealthReport).Status != acemq.HealthDown {
		t.Fatalf("parts %+v", r.Parts)
	}
}

func TestConnHealthIsNamedBrokerUnlessLabelled(t *testing.T) {
	if n := (acemq.ConnHealth{}).Name(); n != "broker" {
		t.Fatalf("%q", n)
	}
	if n := (acemq.ConnHealth{Label: "orders-broker"}).Name(); n != "orders-broker" {
		t.Fatalf("%q", n)
	}
}

func TestConnHealthReportsTheConnection(t *testing.T) {
	conn := familyConn(t, "")
	r := acemq.AggregateHealth(context.Background(), acemq.ConnHealth{Conn: conn})
	part := r.Parts["broker"].(acemq.HealthReport)
	if r.Status != acemq.HealthUp || part.Parts["roundTripMillis"] == nil {
		t.Fatalf("open connection: %+v", r)
	}
	_ = conn.Close()
	if r := (acemq.ConnHealth{Conn: conn}).Check(context.Background()); r.Status != acemq.HealthDown ||
		r.Detail != "the connection has been closed" {
		t.Fatalf("closed connection: %+v", r)
	}
	if r := (acemq.ConnHealth{}).Check(context.Background()); r.Status != acemq.HealthDown {
		t.Fatalf("no connection: %+v", r)
	}
}

// stallingTransport never answers a declaration before its context ends.
type stallingTransport struct{ driver.Transport }

func (stallingTransport) DeclareQueue(ctx context.Context, _ string, _ driver.QueueSpec) error {
	<-ctx.Done()
	return ctx.Err()
}

func TestConnHealthTimeoutBoundsTheProbe(t *testing.T) {
	conn, err := acemq.NewConn(stallingTransport{familyConn(t, "").Transport()})
	if err != nil {
		t.Fatal(err)
	}
	r := acemq.ConnHealth{Conn: conn, Timeout: 5 * time.Millisecond}.Check(context.Background())
	if r.Status != acemq.HealthDown || !strings.Contains(r.Detail, context.DeadlineExceeded.Error()) {
		t.Fatalf("got %+v", r)
	}
}
