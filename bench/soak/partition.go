package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"time"
)

// The fault modes of -faults.
const (
	faultsKill      = "kill"      // SIGKILL and revive nodes, close connections (scripts/broker.sh cluster)
	faultsPartition = "partition" // cut links, pause nodes (scripts/partition.sh, inside its namespace)
)

// partitionKinds is how many kinds of fault partitionStep takes in turn.
const partitionKinds = 6

// publishWindow returns the publishing ctx: it ends after -duration, and
// with -faults partition not before the chaos loop has tried every kind of
// fault once (a heal can take minutes when a node must be restarted).
func publishWindow(ctx context.Context, o options, ch *chaos) (context.Context, context.CancelFunc) {
	if o.faults != faultsPartition || !o.chaos {
		return context.WithTimeout(ctx, o.duration)
	}
	pctx, cancel := context.WithCancel(ctx)
	go func() {
		for start := time.Now(); time.Since(start) < o.duration || ch.triedKinds() < partitionKinds; {
			select {
			case <-pctx.Done():
				return
			case <-time.After(time.Second):
			}
		}
		cancel()
	}()
	return pctx, cancel
}

// triedKinds is how many partition steps the loop has tried.
func (c *chaos) triedKinds() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.tried
}

// Fixed lengths of the partition faults that are not -cut long.
const (
	pauseFor  = 20 * time.Second // the leader paused (SIGSTOP), then resumed
	flapFor   = 30 * time.Second // a link flapping ...
	flapEvery = 2 * time.Second  // ... cut and healed every 2 s
	settleFor = 2 * time.Second  // after the cluster is whole again: leaders settle
)

// partitionStep takes partition step i, in turn: isolate the publishers'
// node, isolate the queue's leader, random halves (a random node against the
// other two), a majority ring (two nodes cut from each other, each still
// seeing the third: every node sees a different majority), pause the
// queue's leader for 20 s, flap a random link every 2 s for 30 s. Each
// fault lasts -cut (the pause and the flapping their fixed times) and is
// healed before the next; the chaos loop waits for the heal.
func (c *chaos) partitionStep(i int) {
	c.mu.Lock()
	c.tried++
	c.mu.Unlock()
	switch i % partitionKinds {
	case 0:
		hosts, at := c.pub.Hosts()
		c.isolate(hosts[at][:strings.LastIndex(hosts[at], ":")], "isolate the publishers' node")
	case 1:
		if n := c.partitionLeader(); n != "" {
			c.isolate(n, "isolate the queue's leader")
		}
	case 2:
		c.isolate(fmt.Sprint(1+rand.IntN(3)), "random halves: isolate")
	case 3:
		a, b := randomPair()
		c.fault("majority ring: cut", a+" "+b, func() error { return c.run("cut", a, b) }, sleeper(c.o.cut))
	case 4:
		if n := c.partitionLeader(); n != "" {
			c.fault("pause the queue's leader", n, func() error { return c.run("pause", n) }, sleeper(pauseFor), "resume", n)
		}
	default:
		a, b := randomPair()
		c.fault("flap a link every 2 s: cut", a+" "+b, func() error { return c.run("cut", a, b) }, func() { c.flap(a, b) })
	}
}

func randomPair() (string, string) {
	a := 1 + rand.IntN(3)
	return fmt.Sprint(a), fmt.Sprint(1 + (a+rand.IntN(2))%3)
}

// isolate cuts node n from both others for -cut.
func (c *chaos) isolate(n, what string) {
	c.fault(what, n, func() error { return c.run("isolate", n) }, sleeper(c.o.cut))
}

// sleeper returns a hold of d.
func sleeper(d time.Duration) func() { return func() { time.Sleep(d) } }

// fault applies a fault, records it, and in the background holds it (hold
// returns when the fault is to end), heals (the undo command, then
// heal-all) and lets the cluster settle.
func (c *chaos) fault(what, node string, apply func() error, hold func(), undo ...string) {
	at := time.Now()
	if err := apply(); err != nil {
		fmt.Fprintf(os.Stderr, "soak: %s %s: %v\n", what, node, err)
		_ = c.run("heal-all")
		return
	}
	c.record(step{what: what, port: node, at: at})
	c.wg.Go(func() {
		hold()
		if len(undo) > 0 {
			_ = c.run(undo...)
		}
		_ = c.run("heal-all")
		if err := c.run("wait-whole", "240"); err != nil {
			fmt.Fprintln(os.Stderr, "soak:", err)
			c.mu.Lock()
			c.stuck = true
			c.mu.Unlock()
		}
		time.Sleep(settleFor)
	})
}

// flap heals and cuts again the link between a and b (cut when it is
// called) every flapEvery, for flapFor.
func (c *chaos) flap(a, b string) {
	verbs := [2]string{"heal", "cut"}
	for i, end := 0, time.Now().Add(flapFor); time.Now().Before(end); i++ {
		time.Sleep(flapEvery)
		_ = c.run(verbs[i%2], a, b)
	}
}

// run runs a partition.sh command, reporting its output on failure.
func (c *chaos) run(args ...string) error {
	out, err := c.script(args...)
	if err != nil {
		return fmt.Errorf("partition.sh %s: %w\n%s", strings.Join(args, " "), err, out)
	}
	return nil
}

// partitionLeader returns the number of the node leading the soak queue
// (partition.sh leader QUEUE), "" when no node says.
func (c *chaos) partitionLeader() string {
	out, err := c.script("leader", c.queue)
	if err != nil {
		fmt.Fprintf(os.Stderr, "soak: partition.sh leader %s: %v\n%s", c.queue, err, out)
		return ""
	}
	return strings.Fields(out + " ")[0]
}
