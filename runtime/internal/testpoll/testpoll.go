// Package testpoll is the one poll loop of the runtime's tests: wait until a
// condition holds, failing the test when it does not in time.
package testpoll

import (
	"testing"
	"time"
)

// Until calls cond every step until it reports true, failing t (naming what
// it waited for) once within has passed without it.
func Until(t testing.TB, within, step time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s", within, what)
		}
		time.Sleep(step)
	}
}
