package rabbitmq

import (
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// Supports reports what the transport does (driver.CapabilityReporter):
// publisher confirms unless WithoutConfirms, recovery unless
// WithoutRecovery, and RabbitMQ's dead-lettering, quorum queues, streams and
// message priority. Transactions and delayed delivery (a broker plugin) are
// not offered. Safe for concurrent use; never blocks.
func (t *Transport) Supports(c driver.Capability) bool {
	switch c {
	case driver.CapabilityPublisherConfirms:
		return t.cfg.confirms
	case driver.CapabilityRecovery:
		return t.cfg.recovery == recoveryOn
	case driver.CapabilityDeadLettering, driver.CapabilityQuorumQueues,
		driver.CapabilityStreams, driver.CapabilityPriority:
		return true
	default:
		return false
	}
}

var _ driver.CapabilityReporter = (*Transport)(nil)
