package acemq

import (
	"fmt"
	"time"
)

// The family's shared exchange names (FAMILY-SPEC §2.4).
const (
	// DeadLetterExchange is the direct exchange every dead-letter and parked
	// queue is bound to, each on its own name.
	DeadLetterExchange = "acemq.dlx"
	// RetryExchange is the direct exchange a retry rung dead-letters into when
	// its TTL expires; the source queue is bound to it on its own name.
	RetryExchange = "acemq.retry"
)

// Broker argument names used by the family's topology.
const (
	ArgQueueType            = "x-queue-type"
	ArgDeadLetterExchange   = "x-dead-letter-exchange"
	ArgDeadLetterRoutingKey = "x-dead-letter-routing-key"
	ArgMessageTTL           = "x-message-ttl"
)

// DeadLetterQueue names the queue that holds queue's dead letters: {queue}.dlq.
func DeadLetterQueue(queue string) string { return queue + ".dlq" }

// ParkedQueue names the queue that holds queue's parked messages: {queue}.parked.
func ParkedQueue(queue string) string { return queue + ".parked" }

// RungQueue names the retry rung of queue that holds a message for d:
// {queue}.retry.{delay}, the delay in whole seconds rendered in the largest
// unit that divides it exactly (30s, 90s, 5m, 2h). A delay under a second
// renders as 0s, as the Go, Python and Ruby libraries do (Java writes 500ms).
func RungQueue(queue string, d time.Duration) string {
	return queue + ".retry." + rungDelayName(d)
}

func rungDelayName(d time.Duration) string {
	secs := int64(d / time.Second)
	switch {
	case secs <= 0:
		return "0s"
	case secs%3600 == 0:
		return fmt.Sprintf("%dh", secs/3600)
	case secs%60 == 0:
		return fmt.Sprintf("%dm", secs/60)
	default:
		return fmt.Sprintf("%ds", secs)
	}
}

// RungArgs returns the broker arguments of queue's rung for d, exactly three:
// x-message-ttl (milliseconds, int64), x-dead-letter-exchange (RetryExchange)
// and x-dead-letter-routing-key (queue). The map is new on every call.
func RungArgs(queue string, d time.Duration) map[string]any {
	return map[string]any{
		ArgMessageTTL:           d.Milliseconds(),
		ArgDeadLetterExchange:   RetryExchange,
		ArgDeadLetterRoutingKey: queue,
	}
}
