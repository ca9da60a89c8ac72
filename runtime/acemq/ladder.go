package acemq

import (
	"slices"
	"time"
)

// BrokerRungs returns the distinct scheduled waits that are held in the
// broker (WaitsInBroker), in the order the schedule first reaches them. A
// consumer with this policy declares one rung queue for each.
func (p RetryPolicy) BrokerRungs() []time.Duration {
	rungs := []time.Duration{}
	for _, d := range p.Schedule() {
		if p.WaitsInBroker(d) && !slices.Contains(rungs, d) {
			rungs = append(rungs, d)
		}
	}
	return rungs
}

// HasBrokerWaits reports whether any scheduled wait is held in the broker.
func (p RetryPolicy) HasBrokerWaits() bool { return len(p.BrokerRungs()) > 0 }

// RungFor returns the rung that holds a wait of d: the shortest rung at
// least as long as d, or the longest rung when d is beyond every rung;
// 0 when the policy has no rungs.
func (p RetryPolicy) RungFor(d time.Duration) time.Duration {
	rungs := p.BrokerRungs()
	if len(rungs) == 0 {
		return 0
	}
	slices.Sort(rungs)
	for _, r := range rungs {
		if r >= d {
			return r
		}
	}
	return rungs[len(rungs)-1]
}

// Rung is one retry rung queue of a source queue: its name, the wait it
// holds a message for and its broker arguments (see RungArgs).
type Rung struct {
	Queue string
	Delay time.Duration
	Args  map[string]any
}

// LadderFor returns the rung queues a consumer of queue with policy p
// declares, in BrokerRungs order; empty when p has no broker waits.
func LadderFor(queue string, p RetryPolicy) []Rung {
	rungs := p.BrokerRungs()
	out := make([]Rung, 0, len(rungs))
	for _, d := range rungs {
		out = append(out, Rung{Queue: RungQueue(queue, d), Delay: d, Args: RungArgs(queue, d)})
	}
	return out
}
