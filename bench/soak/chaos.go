package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/acemq/acemq-gen/runtime/rabbitmq"
)

// chaos kills and revives nodes and closes connections, one node down at a
// time (a majority stays up), cycling through: the node the publishers are
// connected to, the queue's leader, every connection closed by the broker.
type chaos struct {
	o     options
	pub   *rabbitmq.Transport
	queue string
	mu    sync.Mutex
	steps []step
	lost  int  // recovery events: connections lost
	stuck bool // a node could not be revived: no more steps
	wg    sync.WaitGroup

	tried      int           // partition steps tried
	lastOK     time.Time     // the latest confirm
	longestGap time.Duration // the longest time between two confirms
}

// step is one chaos action and how long publishing took to recover from it.
type step struct {
	what     string
	port     string
	at       time.Time
	recovery time.Duration // from the action to the first publish confirmed after it; 0: none seen
	handled  time.Duration // from the action to the first message handled after it; 0: none seen
	gap      time.Duration // the longest time without a confirm from the action to the next
}

func newChaos(o options) *chaos { return &chaos{o: o} }

func (c *chaos) recovery(ev rabbitmq.RecoveryEvent) {
	if ev.Kind == rabbitmq.RecoveryLost {
		c.mu.Lock()
		c.lost++
		c.mu.Unlock()
	}
}

// loop runs a step every -every until ctx ends, then waits for revivals.
func (c *chaos) loop(ctx context.Context) {
	t := time.NewTicker(c.o.every)
	defer t.Stop()
	for i := 0; ; i++ {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		c.wg.Wait() // one node down at a time
		if ctx.Err() != nil || c.isStuck() {
			return
		}
		c.step(i)
	}
}

// step takes chaos step i: kill the publishers' node, kill the queue's
// leader, close every connection, in turn.
func (c *chaos) step(i int) {
	if c.o.faults == faultsPartition {
		c.partitionStep(i)
		return
	}
	switch i % 3 {
	case 0:
		hosts, at := c.pub.Hosts()
		c.kill(hosts[at][strings.LastIndex(hosts[at], ":")+1:], "kill the publishers' node")
	case 1:
		if port := c.leader(); port != "" {
			c.kill(port, "kill the queue's leader")
		}
	default:
		c.closeConnections()
	}
}

// kill SIGKILLs the node on port, then revives it (in the background, so
// publishing goes on meanwhile); the loop's next step waits for the revival.
func (c *chaos) kill(port, what string) {
	at := time.Now()
	if out, err := c.script("kill", port); err != nil {
		fmt.Fprintf(os.Stderr, "soak: cluster kill %s: %v\n%s", port, err, out)
		return
	}
	c.record(step{what: what, port: port, at: at})
	c.wg.Go(func() {
		time.Sleep(3 * time.Second)
		c.revive(port)
	})
}

// revive brings the node on port back, trying again (a node SIGKILLed in
// the middle of writing repairs its files on start, which can outlast the
// script's wait on a busy machine) so the next step never kills a second
// node while one is down.
func (c *chaos) revive(port string) {
	for attempt := 1; attempt <= 5; attempt++ {
		out, err := c.script("revive", port)
		if err == nil {
			return
		}
		fmt.Fprintf(os.Stderr, "soak: cluster revive %s (attempt %d): %v\n%s", port, attempt, err, out)
		_, _ = c.script("kill", port) // whatever half-started stops before the next try
	}
	c.mu.Lock()
	c.stuck = true
	c.mu.Unlock()
}

// closeConnections has every node close every client connection.
func (c *chaos) closeConnections() {
	at := time.Now()
	for _, p := range c.o.ports {
		_, _ = c.script("ctl", p, "--", "rabbitmqctl", "close_all_connections", "soak chaos")
	}
	c.record(step{what: "close every connection", at: at})
}

// leader returns the AMQP port of the node leading the soak queue (node
// names are rabbit{PORT}@host, as broker.sh names them).
func (c *chaos) leader() string {
	for _, p := range c.o.ports {
		out, err := c.script("ctl", p, "--", "rabbitmqctl", "list_queues", "--quiet", "--no-table-headers", "name", "leader")
		if err != nil {
			continue
		}
		for _, line := range strings.Split(out, "\n") {
			f := strings.Fields(line)
			if len(f) == 2 && f[0] == c.queue {
				if m := nodePort.FindStringSubmatch(f[1]); m != nil {
					return m[1]
				}
			}
		}
	}
	return ""
}

var nodePort = regexp.MustCompile(`^rabbit(\d+)@`)

func (c *chaos) script(args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if c.o.faults == faultsPartition { // scripts/partition.sh: its commands have no prefix
		out, err := exec.CommandContext(ctx, c.o.script, args...).CombinedOutput()
		return string(out), err
	}
	cmd := exec.CommandContext(ctx, c.o.script, append([]string{"cluster"}, args...)...)
	cmd.Env = append(os.Environ(), "RABBIT_CLUSTER_PORTS="+strings.Join(c.o.ports, " "))
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func (c *chaos) record(s step) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.steps = append(c.steps, s)
}

func (c *chaos) isStuck() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stuck
}

// wait waits for the revivals under way.
func (c *chaos) wait() { c.wg.Wait() }

// confirmed is told of each publish that returned nil (started at start),
// to time recoveries: a step's is the first confirm of a publish started
// after it.
func (c *chaos) confirmed(start time.Time) {
	now := time.Now()
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.lastOK.IsZero() {
		c.longestGap = max(c.longestGap, now.Sub(c.lastOK))
	}
	if n := len(c.steps); n > 0 {
		s := &c.steps[n-1]
		s.gap = max(s.gap, now.Sub(later(c.lastOK, s.at)))
	}
	c.lastOK = now
	for i := range c.steps {
		if s := &c.steps[i]; s.recovery == 0 && start.After(s.at) {
			s.recovery = now.Sub(s.at)
		}
	}
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// handled is told of each message a consumer handled, to time the first
// handled after each step.
func (c *chaos) handled() {
	now := time.Now()
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := len(c.steps) - 1; i >= 0 && c.steps[i].handled == 0; i-- {
		c.steps[i].handled = now.Sub(c.steps[i].at)
	}
}

// summary returns the steps taken and the connections lost.
func (c *chaos) summary() chaosSummary {
	c.mu.Lock()
	defer c.mu.Unlock()
	return chaosSummary{steps: append([]step(nil), c.steps...), lost: c.lost, stuck: c.stuck, longestGap: c.longestGap}
}

type chaosSummary struct {
	steps      []step
	lost       int
	stuck      bool          // a node could not be revived
	longestGap time.Duration // the longest time without a confirm
}
