package acemq

import (
	"fmt"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq/driver"
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

// DeadLetterQueue names the queue that holds queue's dead letters: {queue}.dlq.
func DeadLetterQueue(queue string) string { return queue + ".dlq" }

// ParkedQueue names the queue that holds queue's parked messages: {queue}.parked.
func ParkedQueue(queue string) string { return queue + ".parked" }

// RungQueue names the retry rung of queue that holds a message for d:
// {queue}.retry.{delay}. The name follows the rung's TTL (rungArgs: d in
// whole milliseconds, the broker's resolution), so two rungs share a name only
// when they hold a message equally long. A whole number of seconds renders in
// the largest unit that divides it exactly, as the family does (30s, 90s, 5m,
// 2h; 0s for no wait); any other delay renders exactly in milliseconds, as the
// Java library does (500ms, 1500ms), where the Go, Python and Ruby libraries
// round down to whole seconds and so let 1s and 1500ms share one rung.
func RungQueue(queue string, d time.Duration) string {
	return queue + ".retry." + rungDelayName(d)
}

func rungDelayName(d time.Duration) string {
	ms := max(d.Milliseconds(), 0)
	secs := ms / 1000
	switch {
	case ms%1000 != 0:
		return fmt.Sprintf("%dms", ms)
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

// rungArgs returns the broker arguments of queue's rung for d, exactly three:
// x-message-ttl (milliseconds, int64), x-dead-letter-exchange (RetryExchange)
// and x-dead-letter-routing-key (queue). The map is new on every call.
func rungArgs(queue string, d time.Duration) map[string]any {
	return map[string]any{
		driver.ArgMessageTTL:           d.Milliseconds(),
		driver.ArgDeadLetterExchange:   RetryExchange,
		driver.ArgDeadLetterRoutingKey: queue,
	}
}
