package outbox

import (
	"fmt"
	"time"
)

// Defaults of a Relay.
const (
	// DefaultPollInterval is how often a relay looks for rows when no
	// notification woke it.
	DefaultPollInterval = time.Second
	// DefaultMaxAttempts is how many refused publishes retire a row.
	DefaultMaxAttempts = 10
	// DefaultBatch is how many rows a relay claims and keeps unconfirmed at once.
	DefaultBatch = 500
	// DefaultBatchBytes bounds the bytes (bodies and stored headers) of the
	// rows a relay loads at once: 16 MiB.
	DefaultBatchBytes = 16 << 20
	// DefaultMaxBackoff bounds the wait after an outage of the broker or the database.
	DefaultMaxBackoff = 5 * time.Second
)

// RelayOption configures a Relay. An invalid option makes Run fail at once.
type RelayOption func(*relayConfig) error

// relayConfig is what NewRelay was told.
type relayConfig struct {
	poll        time.Duration
	maxAttempts int
	retain      time.Duration
	batch       int
	batchBytes  int
	maxBackoff  time.Duration
	pollOnly    bool
}

func defaultRelayConfig() relayConfig {
	return relayConfig{poll: DefaultPollInterval, maxAttempts: DefaultMaxAttempts, batch: DefaultBatch,
		batchBytes: DefaultBatchBytes, maxBackoff: DefaultMaxBackoff}
}

// PollInterval sets how often the relay looks for committed rows when no
// notification came (LISTEN/NOTIFY wakes it at once otherwise). Default
// DefaultPollInterval (1 s); it must be positive.
func PollInterval(d time.Duration) RelayOption {
	return func(c *relayConfig) error {
		if d <= 0 {
			return fmt.Errorf("acemq: outbox.PollInterval must be positive, got %s", d)
		}
		c.poll = d
		return nil
	}
}

// PollOnly makes the relay find committed rows by polling every
// PollInterval only, opening no LISTEN connection: for a relay inside a
// testing/synctest bubble (acemqtest.Run), whose virtual clock makes polling
// free and where a connection waiting on the network forever would keep the
// bubble from ever settling. Production relays should keep LISTEN.
func PollOnly() RelayOption {
	return func(c *relayConfig) error {
		c.pollOnly = true
		return nil
	}
}

// MaxAttempts sets after how many refused publishes (unroutable, or nacked
// by the broker — not an outage, which costs no attempt) a row is retired:
// kept in the table with its attempts and last error, never published
// again. Default DefaultMaxAttempts (10); it must be at least 1.
func MaxAttempts(n int) RelayOption {
	return func(c *relayConfig) error {
		if n < 1 {
			return fmt.Errorf("acemq: outbox.MaxAttempts must be at least 1, got %d", n)
		}
		c.maxAttempts = n
		return nil
	}
}

// Retain keeps published rows for d (their published_at set) before they are
// deleted. Default 0: a row is deleted as soon as its confirm arrived.
// Negative is refused.
func Retain(d time.Duration) RelayOption {
	return func(c *relayConfig) error {
		if d < 0 {
			return fmt.Errorf("acemq: outbox.Retain must not be negative, got %s", d)
		}
		c.retain = d
		return nil
	}
}

// Batch sets how many rows the relay claims at once: the window of
// unconfirmed publishes. Default DefaultBatch (500); it must be at least 1.
func Batch(n int) RelayOption {
	return func(c *relayConfig) error {
		if n < 1 {
			return fmt.Errorf("acemq: outbox.Batch must be at least 1, got %d", n)
		}
		c.batch = n
		return nil
	}
}

// BatchBytes bounds the bytes a relay loads into memory at once: the rows
// of a batch are taken in commit order while their bodies and stored
// headers add up to at most n bytes (and Batch rows). A row larger than n
// is published alone. Default DefaultBatchBytes (16 MiB); it must be at
// least 1.
func BatchBytes(n int) RelayOption {
	return func(c *relayConfig) error {
		if n < 1 {
			return fmt.Errorf("acemq: outbox.BatchBytes must be at least 1, got %d", n)
		}
		c.batchBytes = n
		return nil
	}
}

// MaxBackoff bounds the wait between tries while the broker or the database
// is unreachable (the wait starts at 50 ms and doubles). Default
// DefaultMaxBackoff (5 s); it must be positive.
func MaxBackoff(d time.Duration) RelayOption {
	return func(c *relayConfig) error {
		if d <= 0 {
			return fmt.Errorf("acemq: outbox.MaxBackoff must be positive, got %s", d)
		}
		c.maxBackoff = d
		return nil
	}
}
