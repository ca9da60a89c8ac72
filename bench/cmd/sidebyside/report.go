package main

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"syscall"
	"time"
)

// measurement is one timed trial.
type measurement struct {
	n    int
	wall time.Duration
	cpu  time.Duration // this process's user + system CPU

	p50, p99 time.Duration // of the trial's latencies, when it measures them
}

// latencyText is ", p50 … p99 …" for a trial with latencies, else "".
func (m measurement) latencyText() string {
	if m.p99 == 0 {
		return ""
	}
	return fmt.Sprintf("  p50 %s p99 %s", m.p50.Round(10*time.Microsecond), m.p99.Round(10*time.Microsecond))
}

func (m measurement) p50ms() float64 { return float64(m.p50.Microseconds()) / 1000 }

func (m measurement) p99ms() float64 { return float64(m.p99.Microseconds()) / 1000 }

// percentiles returns the 50th and 99th percentiles of ds (nearest rank).
func percentiles(ds []time.Duration) (p50, p99 time.Duration) {
	if len(ds) == 0 {
		return 0, 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	rank := func(p float64) time.Duration { return s[min(len(s)-1, int(math.Ceil(p*float64(len(s))))-1)] }
	return rank(0.50), rank(0.99)
}

func (m measurement) rate() float64 { return float64(m.n) / m.wall.Seconds() }

func (m measurement) cpuPerMsg() float64 { return float64(m.cpu.Microseconds()) / float64(m.n) }

// processCPU is the user and system CPU time this process has used (every
// goroutine; the broker is another process).
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// results holds every repetition, by scenario and contender.
type results struct {
	rows []row
}

type row struct {
	scenario, contender string
	rep                 int
	m                   measurement
}

func (r *results) add(s scenario, c contender, rep int, m measurement) {
	r.rows = append(r.rows, row{s.name, c.name, rep + 1, m})
}

// of returns the repetitions of one contender.
func (r *results) of(s, c string) []measurement {
	var out []measurement
	for _, x := range r.rows {
		if x.scenario == s && x.contender == c {
			out = append(out, x.m)
		}
	}
	return out
}

// median of the values f gives.
func median(ms []measurement, f func(measurement) float64) (med, lo, hi float64) {
	v := make([]float64, len(ms))
	for i, m := range ms {
		v[i] = f(m)
	}
	slices.Sort(v)
	if len(v) == 0 {
		return 0, 0, 0
	}
	mid := v[len(v)/2]
	if len(v)%2 == 0 {
		mid = (v[len(v)/2-1] + v[len(v)/2]) / 2
	}
	return mid, v[0], v[len(v)-1]
}

// table writes the Markdown table: per contender the median, min and max
// msg/s, the ratio of its median to its reference's (raw amqp091-go unless
// the cell names another), and its median CPU per message with the ratio to
// the same reference's.
func (r *results) table(w io.Writer, scenarios []scenario) {
	fmt.Fprintln(w, "| scenario | contender | msgs | median msg/s | min | max | ratio | cpu-µs/msg | cpu ratio |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|")
	for _, s := range scenarios {
		for _, c := range s.contenders {
			ms := r.of(s.name, c.name)
			if len(ms) == 0 {
				continue
			}
			med, lo, hi := median(ms, measurement.rate)
			cpu, _, _ := median(ms, measurement.cpuPerMsg)
			ratio, cpuRatio := "1.00", "1.00"
			if c.against != "" {
				ref, _, _ := median(r.of(s.name, c.against), measurement.rate)
				refCPU, _, _ := median(r.of(s.name, c.against), measurement.cpuPerMsg)
				ratio = fmt.Sprintf("%.2f", med/ref)
				cpuRatio = fmt.Sprintf("%.2f", cpu/refCPU)
				if c.against != s.contenders[0].name {
					ratio += " (to " + c.against + ")"
				}
			}
			fmt.Fprintf(w, "| %s | %s | %d | %.0f | %.0f | %.0f | %s | %.1f | %s |\n",
				s.name, c.name, ms[0].n, med, lo, hi, ratio, cpu, cpuRatio)
		}
	}
	r.latencyTable(w, scenarios)
}

// latencyTable writes, for the contenders that measured latencies, the
// median, min and max over the repetitions of each repetition's p50 and p99.
func (r *results) latencyTable(w io.Writer, scenarios []scenario) {
	header := false
	for _, s := range scenarios {
		for _, c := range s.contenders {
			ms := r.of(s.name, c.name)
			if len(ms) == 0 || ms[0].p99 == 0 {
				continue
			}
			if !header {
				fmt.Fprintln(w, "\n| scenario | contender | msgs | p50 ms (median) | min | max | p99 ms (median) | min | max |")
				fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|")
				header = true
			}
			p50, p50lo, p50hi := median(ms, measurement.p50ms)
			p99, p99lo, p99hi := median(ms, measurement.p99ms)
			fmt.Fprintf(w, "| %s | %s | %d | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f |\n",
				s.name, c.name, ms[0].n, p50, p50lo, p50hi, p99, p99lo, p99hi)
		}
	}
}

// latencyCell is a latency in ms for the CSV, empty for a trial without.
func latencyCell(m measurement, f func() float64) string {
	if m.p99 == 0 {
		return ""
	}
	return strconv.FormatFloat(f(), 'f', 3, 64)
}

// writeCSV writes every repetition.
func (r *results) writeCSV(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := csv.NewWriter(f)
	_ = w.Write([]string{"scenario", "contender", "repetition", "messages", "seconds", "msg_per_s", "cpu_us_per_msg", "p50_ms", "p99_ms"})
	for _, x := range r.rows {
		_ = w.Write([]string{x.scenario, x.contender, strconv.Itoa(x.rep), strconv.Itoa(x.m.n),
			strconv.FormatFloat(x.m.wall.Seconds(), 'f', 4, 64),
			strconv.FormatFloat(x.m.rate(), 'f', 1, 64), strconv.FormatFloat(x.m.cpuPerMsg(), 'f', 2, 64),
			latencyCell(x.m, x.m.p50ms), latencyCell(x.m, x.m.p99ms)})
	}
	w.Flush()
	if err := w.Error(); err != nil {
		_ = f.Close()
		return err
	}
	fmt.Fprintf(os.Stderr, "wrote %s\n", path)
	return f.Close()
}
