package rabbitmq

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/internal/faultlock"
)

// faultNode returns the URL and port of the broker node the fault tests may
// stop, block and disconnect (exported by scripts/test.sh), and holds it for
// t: other packages' tests (the outbox crash tests restart it) wait.
func faultNode(t *testing.T) (url, port string) {
	t.Helper()
	url, port = brokerEnvPair(t, "the fault tests need a node of their own: `scripts/broker.sh start 5699` then export "+
		"ACEMQ_TEST_FAULT_AMQP_URL=$(scripts/broker.sh url 5699) ACEMQ_TEST_FAULT_PORT=5699 (scripts/test.sh does this)",
		"ACEMQ_TEST_FAULT_AMQP_URL", "ACEMQ_TEST_FAULT_PORT")
	faultlock.Hold(t, port)
	return url, port
}

// rabbitmqctl runs rabbitmqctl args against the node on port through
// scripts/broker.sh, failing the test when it fails.
func rabbitmqctl(t *testing.T, port string, args ...string) string {
	t.Helper()
	out, err := runCtl(port, args...)
	if err != nil {
		t.Fatalf("rabbitmqctl %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

func runCtl(port string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "../../scripts/broker.sh", append([]string{"ctl", port, "--", "rabbitmqctl"}, args...)...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}
