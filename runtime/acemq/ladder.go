package acemq

import (
	"slices"
	"time"
)

// brokerRungs returns the distinct scheduled waits that are held in the
// broker (waitsInBroker), in the order the schedule first reaches them. A
// consumer with this policy declares one rung queue for each.
func (p RetryPolicy) brokerRungs() []time.Duration {
	rungs := []time.Duration{}
	for _, d := range p.Schedule() {
		if p.waitsInBroker(d) && !slices.Contains(rungs, d) {
			rungs = append(rungs, d)
		}
	}
	return rungs
}

// hasBrokerWaits reports whether any scheduled wait is held in the broker.
func (p RetryPolicy) hasBrokerWaits() bool { return len(p.brokerRungs()) > 0 }

// rungFor returns the rung that holds a wait of d: the shortest rung at
// least as long as d, or the longest rung when d is beyond every rung;
// 0 when the policy has no rungs.
func (p RetryPolicy) rungFor(d time.Duration) time.Duration {
	rungs := p.brokerRungs()
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

// ladderRung is one retry rung queue of a source queue: its name, the wait it
// holds a message for and its broker arguments (see rungArgs).
type ladderRung struct {
	Queue string
	Delay time.Duration
	Args  map[string]any
}

// ladderFor returns the rung queues a consumer of queue with policy p
// declares, in brokerRungs order; empty when p has no broker waits.
func ladderFor(queue string, p RetryPolicy) []ladderRung {
	rungs := p.brokerRungs()
	out := make([]ladderRung, 0, len(rungs))
	for _, d := range rungs {
		out = append(out, ladderRung{Queue: RungQueue(queue, d), Delay: d, Args: rungArgs(queue, d)})
	}
	return out
}
