//go:build linux

package avro

import (
	"runtime"
	"syscall"
	"testing"
)

// cpuMeter measures the CPU time of the benchmark's own (locked) thread. On
// a shared machine descheduling inflates ns/op by tens of percent from run
// to run; cpu-ns/op counts only the time the loop actually ran.
type cpuMeter struct{ start int64 }

func startCPU() cpuMeter {
	runtime.LockOSThread()
	return cpuMeter{start: threadCPU()}
}

// report adds cpu-ns/op to b's results.
func (m cpuMeter) report(b *testing.B) {
	b.ReportMetric(float64(threadCPU()-m.start)/float64(b.N), "cpu-ns/op")
	runtime.UnlockOSThread()
}

func threadCPU() int64 {
	var ru syscall.Rusage
	_ = syscall.Getrusage(1, &ru) // RUSAGE_THREAD
	return ru.Utime.Nano() + ru.Stime.Nano()
}
