package driver

// Broker argument names used by the family's topology.
const (
	ArgQueueType            = "x-queue-type"
	ArgDeadLetterExchange   = "x-dead-letter-exchange"
	ArgDeadLetterRoutingKey = "x-dead-letter-routing-key"
	ArgMessageTTL           = "x-message-ttl"
)

const (
	ArgDeliveryLimit      = "x-delivery-limit"
	ArgLeaderLocator      = "x-queue-leader-locator"
	ArgDeadLetterStrategy = "x-dead-letter-strategy"
	ArgOverflow           = "x-overflow"
	// ArgExpires deletes a queue unused for this many milliseconds.
	ArgExpires = "x-expires"
)
