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
// Without -ports (or with -chaos=false) nothing is killed: the same load on
// one node gives the throughput to compare the cluster's with.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"
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
}

func main() {
	var o options
	var ports string
	flag.StringVar(&o.url, "url", os.Getenv("ACEMQ_TEST_CLUSTER_URL"), "AMQP URL (several hosts for a cluster)")
	flag.StringVar(&ports, "ports", os.Getenv("ACEMQ_TEST_CLUSTER_PORTS"), "the cluster nodes' AMQP ports, space-separated (for broker.sh cluster kill/revive)")
	flag.DurationVar(&o.duration, "duration", time.Minute, "how long to publish")
	flag.Int64Var(&o.max, "max", 500_000, "the most messages to publish")
	flag.IntVar(&o.producers, "producers", 8, "goroutines publishing with Send (one more uses SendAsync)")
	flag.BoolVar(&o.chaos, "chaos", true, "kill and revive nodes and close connections while publishing")
	flag.DurationVar(&o.every, "every", 0, "time between chaos steps (default duration/6, at least 5s)")
	flag.StringVar(&o.script, "script", "../scripts/broker.sh", "the broker script (cluster kill|revive|ctl)")
	flag.DurationVar(&o.drain, "drain", 15*time.Minute, "the longest wait for the consumers to account for every message (a minute without progress ends it sooner)")
	flag.IntVar(&o.rate, "rate", 0, "the most publishes per second, over all producers (0: as fast as confirms come)")
	flag.Parse()
	o.ports = strings.Fields(ports)
	if o.url == "" {
		fmt.Fprintln(os.Stderr, "soak: -url (or ACEMQ_TEST_CLUSTER_URL) is required")
		os.Exit(2)
	}
	if o.every == 0 {
		o.every = max(o.duration/6, 5*time.Second)
	}
	o.chaos = o.chaos && len(o.ports) >= 3
	ctx, cancel := context.WithTimeout(context.Background(), o.duration+o.drain+10*time.Minute)
	defer cancel()
	rep, err := run(ctx, o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "soak:", err)
		os.Exit(1)
	}
	rep.print(os.Stdout)
	if !rep.conserved() {
		fmt.Fprintln(os.Stderr, "soak: conservation FAILED")
		os.Exit(1)
	}
}
