// Package cpumeter reports a benchmark's cpu-ns/op: the CPU time of its own
// thread per operation. On a shared machine descheduling inflates ns/op by
// tens of percent from run to run; cpu-ns/op counts only the time the loop
// actually ran. The codec benchmarks of runtime/avro, runtime/crypto and
// runtime/codecbench share it.
package cpumeter
