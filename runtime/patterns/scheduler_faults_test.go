//go:build schedulefaults

// The scheduler's fault tests SIGKILL brokers, so they build only with the
// tag schedulefaults: scripts/test.sh runs them in a step of their own, after
// the -race run whose other tests share the fault node and the cluster.
//
//	go test -tags schedulefaults -run 'SIGKILL|Stranded|RandomDelays/rabbitmq' ./runtime/patterns/

package patterns

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemqtest"
)

// the full-size load: 2,000 messages, delays 0-90 s, p99 under 1.5 s.
func init() {
	scheduleLoad = loadSize{n: 2000, maxDelay: 90 * time.Second, p99: 1500 * time.Millisecond}
}

// TestScheduledMessagesSurviveABrokerSIGKILLWithAThousandWaiting schedules
// 1,000 messages 15-35 s ahead on the fault node, SIGKILLs its Erlang VM,
// starts it again on its state, and waits for every one: none lost, each
// duplicate a crash mid-move can leave counted.
func TestScheduledMessagesSurviveABrokerSIGKILLWithAThousandWaiting(t *testing.T) {
	v := acemqtest.BrokerEnv(t, "the fault node: `scripts/broker.sh start 5699` (scripts/test.sh does this)",
		"ACEMQ_TEST_FAULT_AMQP_URL", "ACEMQ_TEST_FAULT_PORT")
	url, port := v[0], v[1]
	conn := schedConn(t, url)
	startScheduler(t, conn)
	q, got := destination(t, conn, url)
	due := scheduleMany(t, conn, q, 1000, 15*time.Second, 20*time.Second)
	brokerScript(t, nil, "ctl", port, "--", "rabbitmqctl", "list_queues") // the node answers before the kill
	pid := strings.TrimSpace(brokerScript(t, nil, "pid", port))
	if out, err := exec.Command("kill", "-9", pid).CombinedOutput(); err != nil {
		t.Fatalf("kill -9 %s: %v %s", pid, err, out)
	}
	brokerScript(t, []string{"RABBIT_REVIVE=1"}, "start", port)
	waitFor(t, 90*time.Second, "every scheduled message arrives after the broker's SIGKILL", func() bool {
		return len(uniqueArrivals(got.all())) >= len(due)
	})
	reportArrivals(t, got.all(), due)
}

// TestScheduledMessagesOnQuorumRungsSurviveSIGKILLOfTheNodeHoldingThem
// declares a quorum ladder from the cluster's first node (the leader of every
// rung), schedules 500 messages, SIGKILLs that node: every one arrives.
func TestScheduledMessagesOnQuorumRungsSurviveSIGKILLOfTheNodeHoldingThem(t *testing.T) {
	c := scheduleCluster(t, "acemq-schedule-quorum-kill")
	conn := schedConn(t, c.urlFrom(c.ports[0]), acemq.ScheduleLadderOfType(acemq.QueueQuorum))
	startScheduler(t, conn)
	q, got := clusterDestination(t, c)
	due := scheduleMany(t, conn, q, 500, 10*time.Second, 15*time.Second)
	c.kill(t, c.ports[0])
	waitFor(t, 90*time.Second, "every message on the quorum ladder arrives", func() bool {
		return len(uniqueArrivals(got.all())) >= len(due)
	})
	reportArrivals(t, got.all(), due)
}

// TestScheduledMessagesOnClassicRungsAreStrandedWithTheNodeHoldingThem shows
// the family ladder's trap (docs/scheduling.md): classic rungs live on one
// node, so while it is down the messages waiting on them are not delivered,
// and are lost for good should its disk be lost.
func TestScheduledMessagesOnClassicRungsAreStrandedWithTheNodeHoldingThem(t *testing.T) {
	c := scheduleCluster(t, "acemq-schedule-classic-kill")
	conn := schedConn(t, c.urlFrom(c.ports[0]))
	startScheduler(t, conn)
	q, got := clusterDestination(t, c)
	due := scheduleMany(t, conn, q, 200, 8*time.Second, 4*time.Second)
	c.kill(t, c.ports[0])
	time.Sleep(25 * time.Second) // every message is due by now
	arrived := len(uniqueArrivals(got.all()))
	t.Logf("classic rungs: %d of %d scheduled messages delivered while the node holding the ladder was down", arrived, len(due))
	if arrived >= len(due) {
		t.Fatalf("all %d messages arrived with the ladder's node down: the test did not strand any", len(due))
	}
}

// brokerScript runs scripts/broker.sh args with env added, failing on error.
func brokerScript(t *testing.T, env []string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "../../scripts/broker.sh", args...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("broker.sh %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// schedCluster is the three-node cluster, in a vhost of the test's own.
type schedCluster struct {
	ports []string
	vhost string
}

// scheduleCluster returns the cluster scripts/test.sh starts, with vhost made.
func scheduleCluster(t *testing.T, vhost string) *schedCluster {
	t.Helper()
	v := acemqtest.BrokerEnv(t, "the cluster: ACEMQ_TEST_CLUSTER_URL=$(scripts/broker.sh cluster start | tail -n1) (scripts/test.sh does this)",
		"ACEMQ_TEST_CLUSTER_URL", "ACEMQ_TEST_CLUSTER_PORTS")
	c := &schedCluster{ports: strings.Fields(v[1]), vhost: vhost}
	c.ctl(t, "add_vhost", vhost)
	c.ctl(t, "set_permissions", "-p", vhost, "guest", ".*", ".*", ".*")
	t.Cleanup(func() { c.script(t, "ctl", c.ports[1], "--", "rabbitmqctl", "delete_vhost", vhost) })
	return c
}

// urlFrom is the cluster's multi-host URL in the test's vhost, first the
// node on port.
func (c *schedCluster) urlFrom(port string) string {
	hosts := []string{"127.0.0.1:" + port}
	for _, p := range c.ports {
		if p != port {
			hosts = append(hosts, "127.0.0.1:"+p)
		}
	}
	return fmt.Sprintf("amqp://guest:guest@%s/%s", strings.Join(hosts, ","), c.vhost)
}

func (c *schedCluster) ctl(t *testing.T, args ...string) {
	t.Helper()
	c.script(t, append([]string{"ctl", c.ports[1], "--", "rabbitmqctl"}, args...)...)
}

// kill SIGKILLs the node on port and revives it at cleanup.
func (c *schedCluster) kill(t *testing.T, port string) {
	t.Helper()
	c.script(t, "kill", port)
	t.Cleanup(func() { c.script(t, "revive", port) })
}

func (c *schedCluster) script(t *testing.T, args ...string) string {
	t.Helper()
	return brokerScript(t, []string{"RABBIT_CLUSTER_PORTS=" + strings.Join(c.ports, " ")}, append([]string{"cluster"}, args...)...)
}

// clusterDestination declares a quorum destination queue from the second
// node and consumes it there, so the kill of the first node leaves it be.
func clusterDestination(t *testing.T, c *schedCluster) (string, *arrivals) {
	t.Helper()
	conn := schedConn(t, c.urlFrom(c.ports[1]))
	q := "schedule-kill-" + acemq.NewUUID()[:8]
	if err := conn.DeclareQueue(context.Background(), q, acemq.OfType(acemq.QueueQuorum)); err != nil {
		t.Fatalf("declare %s: %v", q, err)
	}
	return q, recordArrivals(t, conn, q)
}
