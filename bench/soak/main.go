// Command soak publishes and consumes on a RabbitMQ cluster while a chaos
// loop SIGKILLs and revives its nodes and closes its connections, then
// checks conservation: every message whose publish returned nil is
// accounted for exactly once (handled, or in {queue}.dlq / {queue}.parked
// with its reason), no message whose publish failed is counted as sent,
// duplicates are counted, and no handler behind patterns.WithIdempotency
// accepted an id twice. It is bounded in time (-duration) and count (-max)
// and stops by itself; it exits 1 when conservation fails.
//
//	url=$(RABBIT_CLUSTER_PORTS="5941 5942 5943" ../scripts/broker.sh cluster start | tail -n1)
//	go run ./soak -url "$url" -ports "5941 5942 5943" -duration 60s
//
// -faults partition cuts links and pauses nodes instead (scripts/partition.sh;
// the soak runs inside the script's network namespace and takes its URL from
// ACEMQ_TEST_PARTITION_URL): the publishers' node isolated, the queue's
// leader isolated, random halves, a majority ring, the leader paused for
// 20 s, a link flapping every 2 s for 30 s, each partition -cut long:
//
//	../scripts/partition.sh start
//	../scripts/partition.sh exec go run ./soak -faults partition -duration 150s -every 5s -cut 10s
//
// Without -ports (or with -chaos=false) nothing is killed. -compare URL runs
// the same load afterwards, without chaos, on another broker (one node) and
// prints both throughputs side by side:
//
//	go run ./soak -url "$url" -ports "5941 5942 5943" -duration 10m -compare amqp://guest:guest@127.0.0.1:5951/
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

type options struct {
	url       string
	ports     []string
	duration  time.Duration
	max       int64
	producers int
	chaos     bool
	every     time.Duration
	script    string
	drain     time.Duration
	rate      int
	compare   string        // a second URL (one node) to run the same load on, without chaos
	compareD  time.Duration // how long to publish there
	faults    string        // faultsKill or faultsPartition
	cut       time.Duration // how long each partition lasts
	postgres  string        // the outbox stream's database (database/sql pgx DSN); "": no outbox stream
}

func main() {
	var o options
	var ports string
	flag.StringVar(&o.url, "url", os.Getenv("ACEMQ_TEST_CLUSTER_URL"), "AMQP URL (several hosts for a cluster; with -faults partition, default ACEMQ_TEST_PARTITION_URL)")
	flag.StringVar(&ports, "ports", os.Getenv("ACEMQ_TEST_CLUSTER_PORTS"), "the cluster nodes' AMQP ports, space-separated (for broker.sh cluster kill/revive)")
	flag.DurationVar(&o.duration, "duration", time.Minute, "how long to publish (with -faults partition, at least until each of the six faults was tried once)")
	flag.Int64Var(&o.max, "max", 500_000, "the most messages to publish")
	flag.IntVar(&o.producers, "producers", 8, "goroutines publishing with Send (one more uses SendAsync)")
	flag.BoolVar(&o.chaos, "chaos", true, "kill and revive nodes and close connections while publishing")
	flag.DurationVar(&o.every, "every", 0, "time between chaos steps (default duration/6, at least 5s)")
	flag.StringVar(&o.script, "script", "../scripts/broker.sh", "the broker script (cluster kill|revive|ctl)")
	flag.DurationVar(&o.drain, "drain", 15*time.Minute, "the longest wait for the consumers to account for every message (a minute without progress ends it sooner)")
	flag.IntVar(&o.rate, "rate", 0, "the most publishes per second, over all producers (0: as fast as confirms come)")
	flag.StringVar(&o.compare, "compare", "", "after the run, the same load without chaos on this `URL` (one node), for its throughput beside the cluster's")
	flag.DurationVar(&o.compareD, "compare-duration", time.Minute, "how long to publish in the -compare run")
	flag.StringVar(&o.faults, "faults", faultsKill, "the chaos: kill (SIGKILL nodes, scripts/broker.sh cluster) or partition (cut links and pause nodes, scripts/partition.sh; run the soak inside its namespace with partition.sh exec)")
	flag.DurationVar(&o.cut, "cut", 10*time.Second, "-faults partition: how long each partition lasts (the pause is 20 s, the flapping 30 s)")
	flag.StringVar(&o.postgres, "postgres", "", "also run an outbox stream (outbox.Within, Relay, outbox.Once) through the same faults, on this PostgreSQL `DSN` (inside partition.sh's namespace, a Unix-socket DSN: host=/tmp/postgres-5689/run port=5689 user=postgres dbname=postgres)")
	flag.Parse()
	o.ports = strings.Fields(ports)
	if err := o.partitionDefaults(); err != nil {
		fmt.Fprintln(os.Stderr, "soak:", err)
		os.Exit(2)
	}
	if o.url == "" {
		fmt.Fprintln(os.Stderr, "soak: -url (or ACEMQ_TEST_CLUSTER_URL) is required")
		os.Exit(2)
	}
	if o.every == 0 {
		o.every = max(o.duration/6, 5*time.Second)
	}
	o.chaos = o.chaos && (len(o.ports) >= 3 || o.faults == faultsPartition)
	ctx, cancel := context.WithTimeout(context.Background(), o.duration+o.drain+10*time.Minute)
	defer cancel()
	rep, err := run(ctx, o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "soak:", err)
		os.Exit(1)
	}
	rep.print(os.Stdout)
	ok := rep.conserved()
	if o.compare != "" {
		ok = compare(ctx, o, rep) && ok
	}
	if !ok {
		fmt.Fprintln(os.Stderr, "soak: conservation FAILED")
		os.Exit(1)
	}
}

// partitionDefaults checks -faults and, for partition, takes the URL and
// the script of scripts/partition.sh unless given.
func (o *options) partitionDefaults() error {
	switch o.faults {
	case faultsKill:
		return nil
	case faultsPartition:
	default:
		return fmt.Errorf("-faults %q: want %s or %s", o.faults, faultsKill, faultsPartition)
	}
	if u := os.Getenv("ACEMQ_TEST_PARTITION_URL"); u != "" && !flagSet("url") {
		o.url = u
	}
	if !flagSet("script") {
		o.script = "../scripts/partition.sh"
	}
	return nil
}

// flagSet reports whether the flag was given on the command line.
func flagSet(name string) bool {
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// compare runs the same load, without chaos, on -compare and prints its
// report and both throughputs side by side; it reports whether that run
// conserved every message too.
func compare(ctx context.Context, o options, cluster *report) bool {
	c := o
	c.url, c.chaos, c.duration, c.compare = o.compare, false, o.compareD, ""
	fmt.Printf("\nsoak: the same load on %s for %v, without chaos\n", redacted(c.url), c.duration)
	rep, err := run(ctx, c)
	if err != nil {
		fmt.Fprintln(os.Stderr, "soak: -compare:", err)
		return false
	}
	rep.print(os.Stdout)
	a, b := cluster.rate(), rep.rate()
	fmt.Printf("throughput: %.0f msg/s confirmed on %s beside %.0f msg/s on %s: %.2fx\n", a, redacted(o.url), b, redacted(c.url), a/max(b, 1))
	return rep.conserved()
}

// redacted is an AMQP URL of one or several hosts as it may be printed:
// acemq.RedactURL's one rule (password replaced by xxxxx; a URL with an
// unencoded reserved character in its password not shown at all).
func redacted(raw string) string { return acemq.RedactURL(raw) }
