package acemqtest

import (
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

// ExpectRunning fails the test at once when c has stopped (its Done channel
// is closed): a consumer that should have carried on through what the test
// did to it.
func ExpectRunning(t testing.TB, c *acemq.Consumer) {
	t.Helper()
	select {
	case <-c.Done():
		t.Fatal("the consumer stopped")
	default:
	}
}
