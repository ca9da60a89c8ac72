package acemqtest

import (
	"os"
	"strings"
	"testing"
)

// RequireBrokerEnv is the environment variable that turns a missing broker
// from a skip into a failure; scripts/test.sh, the project's test command,
// sets it to 1.
const RequireBrokerEnv = "ACEMQ_REQUIRE_BROKER"

// BrokerEnv returns the values of the environment variables names, in order.
// When one is unset the test is skipped with a message naming them and hint
// (how to start what they point at) — unless RequireBrokerEnv is 1, where a
// missing broker fails the test: nothing is skipped silently.
func BrokerEnv(t testing.TB, hint string, names ...string) []string {
	t.Helper()
	values := make([]string, len(names))
	for i, name := range names {
		if values[i] = os.Getenv(name); values[i] == "" {
			missing(t, strings.Join(names, " and ")+" not set; "+hint)
			return nil
		}
	}
	return values
}

// BrokerURL returns ACEMQ_TEST_AMQP_URL, the broker scripts/test.sh starts,
// on BrokerEnv's terms.
func BrokerURL(t testing.TB) string {
	t.Helper()
	v := BrokerEnv(t, "start a broker with `export ACEMQ_TEST_AMQP_URL=$(scripts/broker.sh start)`",
		"ACEMQ_TEST_AMQP_URL")
	if v == nil {
		return ""
	}
	return v[0]
}

// missing skips or fails the test for a broker that is not there.
func missing(t testing.TB, msg string) {
	t.Helper()
	if os.Getenv(RequireBrokerEnv) == "1" {
		t.Fatal(msg + " (" + RequireBrokerEnv + "=1 requires one)")
		return
	}
	t.Skip(msg)
}

// ManagementURL returns ACEMQ_TEST_MANAGEMENT_URL, the management HTTP API
// (http://user:pass@host:port) of the broker scripts/test.sh starts with
// RABBIT_MGMT=1, on BrokerEnv's terms.
func ManagementURL(t testing.TB) string {
	t.Helper()
	v := BrokerEnv(t, "start a broker with the management plugin: `RABBIT_MGMT=1 scripts/broker.sh start PORT`, "+
		"then export ACEMQ_TEST_MANAGEMENT_URL=http://guest:guest@127.0.0.1:$((PORT+10000))", "ACEMQ_TEST_MANAGEMENT_URL")
	if v == nil {
		return ""
	}
	return v[0]
}
