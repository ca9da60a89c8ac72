package acemq

import "time"

// The retry ladder's internals, exported to this package's external tests
// only (they are not part of the API).

// DelayAfter is delayAfter, for tests.
func (p RetryPolicy) DelayAfter(attempt int) time.Duration { return p.delayAfter(attempt) }

// Jitter is jitter, for tests.
func (p RetryPolicy) Jitter(d time.Duration) time.Duration { return p.jitter(d) }

// WaitsInBroker is waitsInBroker, for tests.
func (p RetryPolicy) WaitsInBroker(d time.Duration) bool { return p.waitsInBroker(d) }

// HasBrokerWaits is hasBrokerWaits, for tests.
func (p RetryPolicy) HasBrokerWaits() bool { return p.hasBrokerWaits() }

// RungFor is rungFor, for tests.
func (p RetryPolicy) RungFor(d time.Duration) time.Duration { return p.rungFor(d) }

// BrokerRungs is brokerRungs, for tests.
func (p RetryPolicy) BrokerRungs() []time.Duration { return p.brokerRungs() }

// Rung is ladderRung, for tests.
type Rung = ladderRung

// LadderFor is ladderFor, for tests.
var LadderFor = ladderFor

// RungArgs is rungArgs, for tests.
var RungArgs = rungArgs

// WaitFor is waitFor, for the external tests.
var WaitFor = waitFor

// ExpectFrom is expectFrom, for the external tests.
var ExpectFrom = expectFrom
