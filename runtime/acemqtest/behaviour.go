package acemqtest

import (
	"testing"
)

// behaviourCase is one subtest of the behaviour suite.
type behaviourCase struct {
	name string
	run  func(k *bkit)
}

// BehaviourSuite runs acemq's behaviour suite as subtests of t: the public
// API (Connect, DeclareQueue, NewPublisher, Consume, Topology) end to end,
// on whatever broker url names. url must return a URL for a fresh broker or
// a shared one (every subtest uses queue and exchange names of its own, with
// a random suffix); it is called once per subtest. The same tests pass on
// memory:// and on RabbitMQ, which is how the in-memory broker is kept
// honest. Subtests run one after the other; leftovers are not deleted (see
// BehaviourSuiteWithCleanup).
func BehaviourSuite(t *testing.T, url func(t *testing.T) string) {
	t.Helper()
	BehaviourSuiteWithCleanup(t, url, nil)
}

// BehaviourSuiteWithCleanup is BehaviourSuite that, once each subtest's
// connections are closed, calls cleanup (when not nil) with every queue and
// exchange the subtest declared or made the library declare (dead-letter,
// parked and retry rung queues), so a shared broker is left as it was.
// cleanup is called from the subtest's goroutine.
func BehaviourSuiteWithCleanup(t *testing.T, url func(t *testing.T) string, cleanup func(t *testing.T, queues, exchanges []string)) {
	t.Helper()
	groups := [][]behaviourCase{envelopeCases, outcomeCases, faultCases, panicCases, headerCases, publishBehaviour, streamCases, logCases, consumerCases, topologyCases}
	for _, group := range groups {
		for _, c := range group {
			t.Run(c.name, func(t *testing.T) { c.run(newBKit(t, url, cleanup)) })
		}
	}
}
