package rabbitmq

import (
	"testing"

	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/acemq/acemq-gen/runtime/acemqtest"
)

// TestRabbitMQPassesTheBehaviourSuite runs the same behaviour tests that
// memory:// passes against the broker at ACEMQ_TEST_AMQP_URL (skipped, naming
// scripts/broker.sh, when it is unset, unless ACEMQ_REQUIRE_BROKER=1), and
// deletes what each subtest declared.
func TestRabbitMQPassesTheBehaviourSuite(t *testing.T) {
	url := brokerURL(t)
	acemqtest.BehaviourSuiteWithCleanup(t, func(*testing.T) string { return url },
		func(t *testing.T, queues, exchanges []string) { deleteAll(t, url, queues, exchanges) })
}

// deleteAll deletes queues and exchanges through a connection of its own,
// one channel per deletion (a missing one closes only its channel).
func deleteAll(t *testing.T, url string, queues, exchanges []string) {
	conn, err := amqp.Dial(url)
	if err != nil {
		t.Errorf("cleanup: cannot connect: %v", err)
		return
	}
	defer conn.Close()
	for _, q := range queues {
		if ch, err := conn.Channel(); err == nil {
			_, _ = ch.QueueDelete(q, false, false, false)
			_ = ch.Close()
		}
	}
	for _, x := range exchanges {
		if ch, err := conn.Channel(); err == nil {
			_ = ch.ExchangeDelete(x, false, false)
			_ = ch.Close()
		}
	}
}
