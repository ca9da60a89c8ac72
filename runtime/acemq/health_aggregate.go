package acemq

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// HealthCheck is anything that can report on its own health: the connection
// (ConnHealth) or an application's own dependency (a database, a downstream
// service). AggregateHealth combines several. Check should return quickly,
// honour ctx and must be safe for concurrent use.
type HealthCheck interface {
	// Name identifies the check among the Parts of an aggregate report.
	Name() string
	// Check reports the current state.
	Check(ctx context.Context) HealthReport
}

// ConnHealth is a connection as a HealthCheck. Label names it (default
// "broker"); Timeout bounds each check (default defaultHealthTimeout, 3s; the
// connection's probe is never given more than that). A nil Conn is down.
// Safe for concurrent use.
type ConnHealth struct {
	Conn    *Conn
	Label   string
	Timeout time.Duration
}

// Name returns Label, or "broker" when it is empty.
func (h ConnHealth) Name() string {
	if h.Label == "" {
		return "broker"
	}
	return h.Label
}

// Check runs Conn.Health bounded by Timeout.
func (h ConnHealth) Check(ctx context.Context) HealthReport {
	if h.Conn == nil {
		return downReport("ConnHealth has no connection")
	}
	timeout := h.Timeout
	if timeout <= 0 {
		timeout = defaultHealthTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	return h.Conn.Health(ctx)
}

// AggregateHealth runs every check at once and combines their reports: the
// status is the worst of them (down over degraded over up; up with no
// checks), Parts holds each check's HealthReport under its Name (a repeated
// name gets "#2", "#3", ...), and Detail names each check that is not up
// ("broker is down: <detail>", joined by "; "). A check that panics, is nil
// or has not answered when ctx ends counts as down. Safe for concurrent use.
func AggregateHealth(ctx context.Context, checks ...HealthCheck) HealthReport {
	reports := runChecks(ctx, checks)
	r := HealthReport{Status: HealthUp, Checked: time.Now().UTC(), Parts: make(map[string]any, len(checks))}
	var details []string
	for i, name := range checkNames(checks) {
		part := reports[i]
		r.Parts[name] = part
		r.Status = worseHealth(r.Status, part.Status)
		if part.Status != HealthUp {
			details = append(details, partDetail(name, part))
		}
	}
	r.Detail = strings.Join(details, "; ")
	return r
}

// checkResult is one check's report, by its position among the checks.
type checkResult struct {
	i      int
	report HealthReport
}

// runChecks runs checks in parallel and returns their reports in order; a
// check still running when ctx ends is reported down.
func runChecks(ctx context.Context, checks []HealthCheck) []HealthReport {
	reports := make([]HealthReport, len(checks))
	answered := make([]bool, len(checks))
	results := make(chan checkResult, len(checks))
	for i, c := range checks {
		go func() { results <- checkResult{i, runCheck(ctx, c)} }()
	}
	for range checks {
		select {
		case res := <-results:
			reports[res.i], answered[res.i] = res.report, true
		case <-ctx.Done():
			return unanswered(ctx, reports, answered)
		}
	}
	return reports
}

// unanswered marks every check that has not answered down with ctx's error.
func unanswered(ctx context.Context, reports []HealthReport, answered []bool) []HealthReport {
	for i := range reports {
		if !answered[i] {
			reports[i] = downReport("the check did not answer: " + ctx.Err().Error())
		}
	}
	return reports
}

// runCheck runs c, reporting a nil check or a panic as down.
func runCheck(ctx context.Context, c HealthCheck) HealthReport {
	if c == nil {
		return downReport("the health check is nil")
	}
	r, err := guarded(func() string { return "the check" }, func() (HealthReport, error) { return c.Check(ctx), nil })
	if err != nil {
		return downReport(err.Error())
	}
	return r
}

// checkNames returns each check's name, numbering repeats ("db", "db#2").
func checkNames(checks []HealthCheck) []string {
	names := make([]string, len(checks))
	seen := map[string]int{}
	for i, c := range checks {
		name := safeName(c, i)
		seen[name]++
		if n := seen[name]; n > 1 {
			name = fmt.Sprintf("%s#%d", name, n)
		}
		names[i] = name
	}
	return names
}

// safeName is c's name; a nil or panicking check is named by its position.
func safeName(c HealthCheck, i int) string {
	byPosition := fmt.Sprintf("check %d", i+1)
	if c == nil {
		return byPosition
	}
	name, err := guarded(func() string { return "the check's Name" }, func() (string, error) { return c.Name(), nil })
	if err != nil {
		return byPosition
	}
	return name
}

// healthStatuses are the statuses by rank, best first.
var healthStatuses = [...]string{HealthUp, HealthDegraded, HealthDown}

// worseHealth returns the worse of two statuses; an unknown status counts
// as down.
func worseHealth(a, b string) string {
	return healthStatuses[max(healthRank(a), healthRank(b))]
}

func healthRank(status string) int {
	switch status {
	case HealthUp:
		return 0
	case HealthDegraded:
		return 1
	default:
		return 2
	}
}

// partDetail says why a part is not up.
func partDetail(name string, part HealthReport) string {
	s := name + " is " + worseHealth(HealthUp, part.Status)
	if part.Detail != "" {
		s += ": " + part.Detail
	}
	return s
}

// downReport is a down report with detail, checked now.
func downReport(detail string) HealthReport {
	return HealthReport{Status: HealthDown, Detail: detail, Checked: time.Now().UTC(), Parts: map[string]any{}}
}
