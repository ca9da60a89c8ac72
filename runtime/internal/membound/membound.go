// Package membound measures what a call allocates, for the tests and fuzz
// targets that hold a codec to a memory bound on hostile input.
package membound

import (
	"runtime"
	"testing"
)

// Allocated returns the bytes f allocates on the heap (TotalAlloc's growth,
// so it counts garbage too). It is process-wide: run it where no other
// goroutine of the test allocates much.
func Allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// Slack is the allocation every bound allows before counting input bytes.
const Slack = 4 << 20

// Check fails t when f, decoding size bytes, allocates more than Slack +
// factor × size bytes: a decode whose cost grows faster than its input (a
// parser quadratic in nesting, an alias expansion) passes it on some input
// the fuzzer finds. It returns what f allocated.
func Check(t testing.TB, size, factor int, f func()) uint64 {
	t.Helper()
	n := Allocated(f)
	if bound := uint64(Slack + factor*size); n > bound {
		t.Fatalf("decoding %d bytes allocated %d bytes, over the bound of %d", size, n, bound)
	}
	return n
}
