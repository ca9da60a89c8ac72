package rabbitmq

import (
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemqtest"
)

// TestRabbitMQPassesTheBehaviourSuite runs the same behaviour tests that
// memory:// passes against the broker at ACEMQ_TEST_AMQP_URL (skipped, naming
// scripts/broker.sh, when it is unset, unless ACEMQ_REQUIRE_BROKER=1).
func TestRabbitMQPassesTheBehaviourSuite(t *testing.T) {
	url := brokerURL(t)
	acemqtest.BehaviourSuiteWithCleanup(t, func(*testing.T) string { return url },
		func(t *testing.T, queues, exchanges []string) {
			(&cleaner{t: t, queues: queues, exchanges: exchanges}).run()
		})
}
