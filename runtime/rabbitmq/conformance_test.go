package rabbitmq

import (
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemqtest"
)

func TestRabbitMQTransportPassesTheConformanceSuite(t *testing.T) {
	brokerURL(t)
	acemqtest.TransportConformance(t, func(t *testing.T) acemq.Transport { return openTransport(t) })
}
