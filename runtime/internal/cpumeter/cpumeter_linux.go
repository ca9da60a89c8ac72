//go:build linux

package cpumeter

import (
	"runtime"
	"syscall"
	"testing"
)

// Meter measures the CPU time of the benchmark's own (locked) thread.
type Meter struct{ start int64 }

// Start locks the calling goroutine to its thread and starts measuring.
func Start() Meter {
	runtime.LockOSThread()
	return Meter{start: threadCPU()}
}

// Report adds cpu-ns/op to b's results and unlocks the thread.
func (m Meter) Report(b *testing.B) {
	b.ReportMetric(float64(threadCPU()-m.start)/float64(b.N), "cpu-ns/op")
	runtime.UnlockOSThread()
}

func threadCPU() int64 {
	var ru syscall.Rusage
	_ = syscall.Getrusage(1, &ru) // RUSAGE_THREAD
	return ru.Utime.Nano() + ru.Stime.Nano()
}
