package acemqtest

import (
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// conformanceCase is one subtest of the suite.
type conformanceCase struct {
	name string
	run  func(k *kit)
}

// TransportConformance runs the transport conformance suite as subtests of
// t. open must return a new, connected transport with publisher confirms on;
// the suite closes it when the subtest ends. Subtests run one after the other
// (they do not call t.Parallel), and each leaves at most uniquely named
// queues that expire a minute after the run.
func TransportConformance(t *testing.T, open func(t *testing.T) driver.Transport) {
	t.Helper()
	for _, group := range [][]conformanceCase{routingCases, settleCases, publishCases, deadLetterCases, declareCases, agreementCases, lifetimeCases, cancelCases, featureCases} {
		for _, c := range group {
			t.Run(c.name, func(t *testing.T) { c.run(newKit(t, open)) })
		}
	}
}
