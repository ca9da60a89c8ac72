package rabbitmq

import "github.com/acemq/acemq-gen/runtime/acemq"

// Supports reports what the transport does (acemq.CapabilityReporter):
// publisher confirms unless WithoutConfirms, recovery unless
// WithoutRecovery, and RabbitMQ's dead-lettering, quorum queues, streams and
// message priority. Transactions and delayed delivery (a broker plugin) are
// not offered. Safe for concurrent use; never blocks.
func (t *Transport) Supports(c acemq.Capability) bool {
	switch c {
	case acemq.CapabilityPublisherConfirms:
		return t.cfg.confirms
	case acemq.CapabilityRecovery:
		return t.cfg.recovery == recoveryOn
	case acemq.CapabilityDeadLettering, acemq.CapabilityQuorumQueues,
		acemq.CapabilityStreams, acemq.CapabilityPriority:
		return true
	default:
		return false
	}
}

var _ acemq.CapabilityReporter = (*Transport)(nil)
