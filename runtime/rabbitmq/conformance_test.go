package rabbitmq

import (
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq/driver"
	"github.com/acemq/acemq-gen/runtime/acemqtest"
)

func TestRabbitMQTransportPassesTheConformanceSuite(t *testing.T) {
	brokerURL(t)
	acemqtest.TransportConformance(t, func(t *testing.T) driver.Transport { return openTransport(t) })
}
