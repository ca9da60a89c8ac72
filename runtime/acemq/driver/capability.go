package driver

// Capability is something a transport can or cannot do. Code that needs one
// asks acemq.Conn.Supports first, so it fails clearly on a transport without it
// rather than mysteriously. The values are the family's spellings.
type Capability string

const (
	// CapabilityPublisherConfirms is the broker confirming each publish.
	CapabilityPublisherConfirms Capability = "publisher-confirms"
	// CapabilityTransactions is AMQP transactions; no transport here offers
	// them (confirms cover what they are usually wanted for).
	CapabilityTransactions Capability = "transactions"
	// CapabilityDeadLettering is a rejected or expired message moving to the
	// queue's x-dead-letter-exchange.
	CapabilityDeadLettering Capability = "dead-lettering"
	// CapabilityQuorumQueues is RabbitMQ's replicated queue type.
	CapabilityQuorumQueues Capability = "quorum-queues"
	// CapabilityStreams is consuming RabbitMQ's stream queue type, which
	// keeps messages after they are read.
	CapabilityStreams Capability = "streams"
	// CapabilityPriority is per-message priority (x-max-priority queues).
	CapabilityPriority Capability = "priority"
	// CapabilityDelayedDelivery is publishing a message to arrive later
	// (RabbitMQ needs a plugin for it; no transport here reports it).
	CapabilityDelayedDelivery Capability = "delayed-delivery"
	// CapabilityRecovery is the transport reconnecting by itself after the
	// connection is lost.
	CapabilityRecovery Capability = "recovery"
)

// CapabilityReporter is an optional Transport seam: a transport that says
// what it can do. A transport without it is taken to do nothing beyond the
// Transport interface. Implementations must be safe for concurrent use and
// must not block.
type CapabilityReporter interface {
	Supports(c Capability) bool
}
