package main

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// report is the soak's outcome and its conservation check.
type report struct {
	o             options
	l             *ledger
	elapsed       time.Duration
	drained       bool
	chaos         chaosSummary
	setAside      map[int64]setAsideEntry
	setAsideDupes int
	problems      []string
	outbox        *outboxReport // -postgres's stream; nil without it
}

// wantReason is the reason a message of each set-aside fate carries.
var wantReason = map[fate]string{fateReject: "soak reject", fatePanic: "soak panic", fatePark: "soak park"}

// check accounts for every message and collects the problems.
func (r *report) check() {
	r.problems = nil
	l := r.l
	l.mu.Lock()
	defer l.mu.Unlock()
	lost := 0
	for n := range l.sent {
		if !r.accounted(n) {
			lost++
		}
	}
	if lost > 0 {
		r.problemf("%d messages whose publish returned nil are not accounted for exactly once", lost)
	}
	for n, k := range l.accepted {
		if !l.sent[n] && !l.failed[n] {
			r.problemf("message %d was handled but never published", n)
			break
		}
		if k > 1 {
			r.problemf("message %d was accepted %d times through the idempotency guard", n, k)
			break
		}
	}
	if r.outbox != nil {
		r.problems = append(r.problems, r.outbox.problems()...)
	}
	if !r.drained {
		r.problemf("the consumers did not account for every message within -drain (%v)", r.o.drain)
	}
}

// accounted reports whether sent message n ended exactly one way: accepted
// once (and not set aside), or set aside with its fate's reason (and not
// accepted). l.mu is held.
func (r *report) accounted(n int64) bool {
	f := fateOf(n)
	sa, aside := r.setAside[n]
	acc := r.l.accepted[n]
	if f == fateAccept || f == fateRetryThenAccept {
		return acc == 1 && !aside
	}
	return acc == 0 && aside && strings.Contains(sa.reason, wantReason[f])
}

func (r *report) problemf(format string, args ...any) {
	r.problems = append(r.problems, fmt.Sprintf(format, args...))
}

// rate is the publishes that returned nil per second of publishing.
func (r *report) rate() float64 { return float64(r.l.sentN.Load()) / r.elapsed.Seconds() }

func (r *report) conserved() bool { return len(r.problems) == 0 }

func (r *report) print(w io.Writer) {
	r.check()
	l := r.l
	sent, failed := l.sentN.Load(), l.failedN.Load()
	fmt.Fprintf(w, "soak: %v of publishing to %s (%d Send goroutines + 1 SendAsync)\n", r.elapsed.Round(time.Millisecond), redacted(r.o.url), r.o.producers)
	fmt.Fprintf(w, "published: %d returned nil, %d returned an error (first: %v); %.0f msg/s confirmed\n",
		sent, failed, l.firstErr, r.rate())
	fmt.Fprintf(w, "consumed: %d deliveries, %d accepted ids, %d set aside (%d extra copies in the set-aside queues)\n",
		l.delivered.Load(), len(l.accepted), len(r.setAside), r.setAsideDupes)
	fmt.Fprintf(w, "duplicates: %d deliveries of an (id, attempt) seen before, %.3f%% of deliveries\n",
		l.dupes, 100*float64(l.dupes)/float64(max(1, l.delivered.Load())))
	r.printChaos(w)
	if r.outbox != nil {
		r.outbox.print(w)
	}
	if r.conserved() {
		fmt.Fprintln(w, "conservation: OK (every confirmed message accounted for exactly once; no id accepted twice)")
		return
	}
	for _, p := range r.problems {
		fmt.Fprintln(w, "conservation: FAILED:", p)
	}
}

func (r *report) printChaos(w io.Writer) {
	var longest time.Duration
	kills := 0
	for _, s := range r.chaos.steps {
		rec := "no confirm after it"
		if s.recovery > 0 {
			rec = "first confirm after " + s.recovery.Round(time.Millisecond).String()
			longest = max(longest, s.recovery)
		}
		if s.handled > 0 {
			rec += ", first handled after " + s.handled.Round(time.Millisecond).String()
		}
		rec += ", longest without a confirm " + s.gap.Round(time.Millisecond).String()
		if s.port != "" && r.o.faults != faultsPartition {
			kills++
		}
		fmt.Fprintf(w, "chaos: %s %s %s: %s\n", s.at.Format("15:04:05"), s.what, s.port, rec)
	}
	if r.chaos.stuck {
		fmt.Fprintln(w, "chaos: a node could not be revived; the chaos loop stopped early")
	}
	fmt.Fprintf(w, "chaos: %d SIGKILLs, %d steps, %d publisher connections lost; longest time from a step to the first confirm after it: %v\n",
		kills, len(r.chaos.steps), r.chaos.lost, longest.Round(time.Millisecond))
	fmt.Fprintf(w, "chaos: longest time without a confirm while publishing: %v\n", r.chaos.longestGap.Round(time.Millisecond))
}
