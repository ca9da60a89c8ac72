package rabbitmq

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemqtest"
)

// cluster is the three-node cluster scripts/test.sh starts
// (scripts/broker.sh cluster start) for the tests that kill nodes.
type cluster struct {
	url   string   // the multi-host URL
	ports []string // the nodes' AMQP ports, in the URL's order
	hosts hostList
}

// clusterNodes returns the cluster from ACEMQ_TEST_CLUSTER_URL and
// ACEMQ_TEST_CLUSTER_PORTS, skipping the test (failing it under
// ACEMQ_REQUIRE_BROKER=1) when they are not set.
func clusterNodes(t *testing.T) *cluster {
	t.Helper()
	v := acemqtest.BrokerEnv(t, "the cluster tests need three joined nodes: "+
		"export RABBIT_CLUSTER_PORTS=\"5711 5712 5713\" ACEMQ_TEST_CLUSTER_PORTS=\"5711 5712 5713\" "+
		"ACEMQ_TEST_CLUSTER_URL=$(scripts/broker.sh cluster start | tail -n1) (scripts/test.sh does this)",
		"ACEMQ_TEST_CLUSTER_URL", "ACEMQ_TEST_CLUSTER_PORTS")
	if v == nil {
		return nil
	}
	hosts, err := parseHosts(v[0])
	if err != nil {
		t.Fatalf("ACEMQ_TEST_CLUSTER_URL: %v", err)
	}
	return &cluster{url: v[0], ports: strings.Fields(v[1]), hosts: hosts}
}

// portOf returns the AMQP port of host:port.
func portOf(hostPort string) string { return hostPort[strings.LastIndex(hostPort, ":")+1:] }

// nodeURL returns the single-host URL of the node on port.
func (c *cluster) nodeURL(t *testing.T, port string) string {
	t.Helper()
	for i, h := range c.hosts.hosts {
		if portOf(h) == port {
			return c.hosts.urls[i]
		}
	}
	t.Fatalf("no node of the cluster listens on %s", port)
	return ""
}

// other returns a port of the cluster that is not port.
func (c *cluster) other(port string) string {
	for _, p := range c.ports {
		if p != port {
			return p
		}
	}
	return port
}

// kill SIGKILLs the node on port and revives it at cleanup, so the next test
// finds the cluster whole.
func (c *cluster) kill(t *testing.T, port string) {
	t.Helper()
	if out, err := c.script("kill", port); err != nil {
		t.Fatalf("broker.sh cluster kill %s: %v\n%s", port, err, out)
	}
	t.Cleanup(func() {
		if out, err := c.script("revive", port); err != nil {
			t.Errorf("broker.sh cluster revive %s: %v\n%s", port, err, out)
		}
	})
}

// script runs scripts/broker.sh cluster args for this cluster's ports.
func (c *cluster) script(args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "../../scripts/broker.sh", append([]string{"cluster"}, args...)...)
	cmd.Env = append(os.Environ(), "RABBIT_CLUSTER_PORTS="+strings.Join(c.ports, " "))
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func (c *cluster) ctl(port string, args ...string) string {
	out, _ := c.script(append([]string{"ctl", port, "--", "rabbitmqctl"}, args...)...)
	return out
}

// dial connects a transport to the cluster, recording its recovery events,
// and returns a context the test runs within (3 minutes), the events, the
// transport, the port of the node it is on (the one a test kills) and a
// cleaner connected to another node, so cleanup survives the kill. The
// transport is closed at the end of the test.
func (c *cluster) dial(t *testing.T) (context.Context, *events, *Transport, string, *cleaner) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	ev := newEvents()
	tr, err := Dial(ctx, c.url, clusterDelay, OnRecovery(ev.record))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Close() })
	hosts, at := tr.Hosts()
	victim := portOf(hosts[at])
	return ctx, ev, tr, victim, newCleanerAt(t, c.nodeURL(t, c.other(victim)))
}
