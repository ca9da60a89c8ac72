// Command sidebyside puts the runtime beside raw amqp091-go and Watermill on
// one private RabbitMQ node: every scenario of docs/performance.md, the
// contenders interleaved, several repetitions each. It prints a Markdown
// table (median, min and max msg/s, the ratio of the medians to raw
// amqp091-go's, this process's CPU per message beside raw's) and writes the
// repetitions to a CSV file. Run it from bench/:
//
//	go run ./cmd/sidebyside                 # starts ../scripts/broker.sh start 5780, stops it after
//	go run ./cmd/sidebyside -url amqp://... # an existing broker instead
//	go run ./cmd/sidebyside -reps 7 -scale 2 -csv out.csv -only stream,batch
//	go run ./cmd/sidebyside -only stream -cpuprofile stream.pprof
//	go run ./cmd/sidebyside -only outbox,outbox-latency  # also starts ../scripts/postgres.sh start 5790
//	go run ./cmd/sidebyside -only stream-read            # so does the stream reader's
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"runtime/pprof"
	"slices"
	"strings"
	"time"
)

func main() {
	reps := flag.Int("reps", 5, "repetitions of every contender")
	scale := flag.Float64("scale", 1, "multiplies every scenario's message count")
	url := flag.String("url", "", "AMQP URL of a broker to use (default: start a private node)")
	port := flag.Int("port", 5780, "port of the private node ../scripts/broker.sh starts")
	csvPath := flag.String("csv", "sidebyside.csv", "where to write every repetition")
	only := flag.String("only", "", "comma-separated scenario names to run (default: all)")
	profile := flag.String("cpuprofile", "", "write a CPU profile of the whole run to this file")
	pg := flag.String("pg", "", "PostgreSQL URL for the outbox scenarios (default: start a private cluster)")
	pgPort := flag.Int("pgport", 5790, "port of the private cluster ../scripts/postgres.sh starts")
	flag.Parse()
	if *profile != "" {
		stop, err := startProfile(*profile)
		if err != nil {
			fmt.Fprintln(os.Stderr, "sidebyside:", err)
			os.Exit(1)
		}
		defer stop()
	}
	if err := run(*reps, *scale, *url, *port, *pg, *pgPort, *csvPath, *only); err != nil {
		fmt.Fprintln(os.Stderr, "sidebyside:", err)
		os.Exit(1)
	}
}

// startProfile starts a CPU profile into path.
func startProfile(path string) (func(), error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		_ = f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); _ = f.Close() }, nil
}

func run(reps int, scale float64, url string, port int, pg string, pgPort int, csvPath, only string) error {
	scenarios := selected(allScenarios(), only)
	if url == "" {
		u, stop, err := startService("../scripts/broker.sh", port)
		if err != nil {
			return err
		}
		defer stop()
		url = u
	}
	if pg == "" && slices.ContainsFunc(scenarios, needsDatabase) {
		u, stop, err := startService("../scripts/postgres.sh", pgPort)
		if err != nil {
			return err
		}
		defer stop()
		pg = u
	}
	env := &env{url: url, scale: scale, pgURL: pg}
	started := time.Now()
	load := loadAverage()
	results := &results{}
	for rep := range reps {
		for _, s := range scenarios {
			for k := range s.contenders {
				c := s.contenders[(k+rep)%len(s.contenders)] // rotate who goes first
				m, err := measure(env, s, c)
				if err != nil {
					return fmt.Errorf("%s/%s repetition %d: %w", s.name, c.name, rep+1, err)
				}
				results.add(s, c, rep, m)
				fmt.Fprintf(os.Stderr, "rep %d  %-10s %-34s %9.0f msg/s %7.1f cpu-µs/msg%s\n", rep+1, s.name, c.name, m.rate(), m.cpuPerMsg(), m.latencyText())
			}
		}
	}
	fmt.Printf("Run %s, %s, %d repetitions, load average at start %s, at end %s, Go %s.\n\n",
		started.UTC().Format("2006-01-02 15:04 UTC"), time.Since(started).Round(time.Second), reps, load, loadAverage(), goVersion())
	results.table(os.Stdout, scenarios)
	return results.writeCSV(csvPath)
}

// selected returns the scenarios named in only (all when empty).
func selected(all []scenario, only string) []scenario {
	if only == "" {
		return all
	}
	var out []scenario
	for _, s := range all {
		for _, name := range strings.Split(only, ",") {
			if s.name == strings.TrimSpace(name) {
				out = append(out, s)
			}
		}
	}
	return out
}

// startService starts a node through script (../scripts/broker.sh or
// ../scripts/postgres.sh) and returns its URL and how to stop it.
func startService(script string, port int) (string, func(), error) {
	if _, err := os.Stat(script); err != nil {
		return "", nil, fmt.Errorf("run from bench/ (no %s): %w", script, err)
	}
	p := fmt.Sprint(port)
	var out bytes.Buffer
	cmd := exec.Command(script, "start", p)
	cmd.Stdout, cmd.Stderr = &out, os.Stderr
	if err := cmd.Run(); err != nil {
		return "", nil, fmt.Errorf("%s start %s: %w", script, p, err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	stop := func() {
		c := exec.Command(script, "stop", p)
		c.Stdout, c.Stderr = os.Stderr, os.Stderr
		_ = c.Run()
	}
	return lines[len(lines)-1], stop, nil
}

func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	return strings.Join(f[:3], " ")
}

func goVersion() string {
	out, err := exec.Command("go", "env", "GOVERSION").Output()
	if err != nil {
		return "unknown"
	}
	return strings.TrimSpace(string(out))
}

// measure sets the contender's trial up (untimed), times it, and tears it
// down.
func measure(env *env, s scenario, c contender) (measurement, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	n := env.count(s.messages)
	t, err := c.setup(ctx, env, n)
	if err != nil {
		return measurement{}, err
	}
	defer t.teardown()
	cpu0, wall0 := processCPU(), time.Now()
	if err := t.run(ctx); err != nil {
		return measurement{}, err
	}
	m := measurement{n: n, wall: time.Since(wall0), cpu: processCPU() - cpu0}
	if t.verify != nil {
		if err := t.verify(ctx); err != nil {
			return measurement{}, err
		}
	}
	if t.latencies != nil {
		m.p50, m.p99 = percentiles(t.latencies())
	}
	return m, nil
}
