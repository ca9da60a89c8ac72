package acemq

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"
)

// defaultBrokerWaitThreshold is the wait from which a retry is held on a
// broker rung queue rather than in the consumer. Every factory sets it.
const defaultBrokerWaitThreshold = 30 * time.Second

// RetryPolicy decides whether and when a failed message is tried again
// (FAMILY-SPEC §2.5). It is a value: the modifiers return changed copies, and
// it is safe for concurrent use. Build one with NoRetry, FixedRetry,
// ExponentialRetry or DefaultRetryPolicy; a consumer given none uses
// DefaultRetryPolicy.
type RetryPolicy struct {
	// MaxAttempts counts every delivery, the first included; at least 1.
	MaxAttempts int
	// InitialDelay is the wait after the first failure.
	InitialDelay time.Duration
	// Multiplier grows the wait after each further failure; at least 1.
	Multiplier float64
	// MaxDelay caps the wait; 0 means uncapped.
	MaxDelay time.Duration
	// MaxMessageAge abandons a message once its age reaches it; 0 means no limit.
	MaxMessageAge time.Duration
	// JitterFactor spreads in-consumer waits uniformly by ±factor; 0..1.
	JitterFactor float64
	// BrokerWaitThreshold is the wait from which the message waits on a rung
	// queue in the broker instead of in the consumer; 0 never uses the broker.
	BrokerWaitThreshold time.Duration
}

// NoRetry tries a message once: any failure dead-letters it.
func NoRetry() RetryPolicy {
	return RetryPolicy{MaxAttempts: 1, Multiplier: 1, BrokerWaitThreshold: defaultBrokerWaitThreshold}
}

// FixedRetry tries a message attempts times, waiting delay between tries,
// without jitter.
func FixedRetry(attempts int, delay time.Duration) RetryPolicy {
	return RetryPolicy{
		MaxAttempts:         attempts,
		InitialDelay:        delay,
		Multiplier:          1,
		BrokerWaitThreshold: defaultBrokerWaitThreshold,
	}
}

// ExponentialRetry tries a message attempts times, waiting initial after the
// first failure and twice as long after each further one, capped at max
// (0 = uncapped), with jitter 0.2.
func ExponentialRetry(attempts int, initial, max time.Duration) RetryPolicy {
	return RetryPolicy{
		MaxAttempts:         attempts,
		InitialDelay:        initial,
		Multiplier:          2,
		MaxDelay:            max,
		JitterFactor:        0.2,
		BrokerWaitThreshold: defaultBrokerWaitThreshold,
	}
}

// DefaultRetryPolicy is ExponentialRetry(5, time.Second, time.Minute): what
// a consumer uses when given no policy. There is no unbounded default.
func DefaultRetryPolicy() RetryPolicy {
	return ExponentialRetry(5, time.Second, time.Minute)
}

// GiveUpAfter returns a copy of p that abandons a message once its age
// reaches age (0 = no limit).
func (p RetryPolicy) GiveUpAfter(age time.Duration) RetryPolicy {
	p.MaxMessageAge = age
	return p
}

// WithJitter returns a copy of p whose in-consumer waits spread by ±f.
func (p RetryPolicy) WithJitter(f float64) RetryPolicy {
	p.JitterFactor = f
	return p
}

// WaitInBrokerFrom returns a copy of p whose waits of d or longer are held
// on broker rung queues (0 = never).
func (p RetryPolicy) WaitInBrokerFrom(d time.Duration) RetryPolicy {
	p.BrokerWaitThreshold = d
	return p
}

// IsZero reports whether p is the zero RetryPolicy (no policy given).
func (p RetryPolicy) IsZero() bool { return p == RetryPolicy{} }

// Validate reports the first field of p that is out of range.
func (p RetryPolicy) Validate() error {
	switch {
	case p.MaxAttempts < 1:
		return fmt.Errorf("acemq: RetryPolicy.MaxAttempts must be at least 1, got %d", p.MaxAttempts)
	case p.Multiplier < 1 || math.IsNaN(p.Multiplier) || math.IsInf(p.Multiplier, 0):
		return fmt.Errorf("acemq: RetryPolicy.Multiplier must be at least 1, got %g", p.Multiplier)
	case !(p.JitterFactor >= 0 && p.JitterFactor <= 1):
		return fmt.Errorf("acemq: RetryPolicy.JitterFactor must be between 0 and 1, got %g", p.JitterFactor)
	}
	return p.validateDurations()
}

func (p RetryPolicy) validateDurations() error {
	for _, f := range []struct {
		name string
		d    time.Duration
	}{
		{"InitialDelay", p.InitialDelay}, {"MaxDelay", p.MaxDelay},
		{"MaxMessageAge", p.MaxMessageAge}, {"BrokerWaitThreshold", p.BrokerWaitThreshold},
	} {
		if f.d < 0 {
			return fmt.Errorf("acemq: RetryPolicy.%s must not be negative, got %s", f.name, f.d)
		}
	}
	return nil
}

// Schedule returns the un-jittered waits after attempts 1 .. MaxAttempts-1:
// InitialDelay × Multiplier^(n-1), capped at MaxDelay. Empty for one attempt.
func (p RetryPolicy) Schedule() []time.Duration {
	if p.MaxAttempts <= 1 {
		return []time.Duration{}
	}
	out := make([]time.Duration, 0, p.MaxAttempts-1)
	for n := 1; n < p.MaxAttempts; n++ {
		out = append(out, p.delayAfter(n))
	}
	return out
}

// delayAfter returns the un-jittered wait after attempt n (n ≥ 1) failed;
// 0 for n < 1.
func (p RetryPolicy) delayAfter(attempt int) time.Duration {
	if attempt < 1 || p.InitialDelay <= 0 {
		return 0
	}
	mult := max(p.Multiplier, 1)
	d := float64(p.InitialDelay) * math.Pow(mult, float64(attempt-1))
	if p.MaxDelay > 0 && d >= float64(p.MaxDelay) {
		return p.MaxDelay
	}
	if d >= math.MaxInt64 {
		return time.Duration(math.MaxInt64)
	}
	return time.Duration(d)
}

// Retries reports whether a message whose attempt failed should be tried
// again: attempt < MaxAttempts and, with a MaxMessageAge, age below it (an
// age equal to the limit gives up; a negative age means unknown and counts
// as young).
func (p RetryPolicy) Retries(attempt int, age time.Duration) bool {
	if attempt >= p.MaxAttempts {
		return false
	}
	return p.MaxMessageAge <= 0 || age < 0 || age < p.MaxMessageAge
}

// jitter returns a wait drawn uniformly from [d(1−f), d(1+f)] for the
// policy's JitterFactor f, never below one millisecond. Safe for concurrent use.
func (p RetryPolicy) jitter(d time.Duration) time.Duration {
	f := min(max(p.JitterFactor, 0), 1)
	if f > 0 && d > 0 {
		spread := float64(d) * f
		d = time.Duration(float64(d) - spread + rand.Float64()*2*spread)
	}
	return max(d, time.Millisecond)
}

// waitsInBroker reports whether a wait of d is held on a broker rung queue:
// d ≥ BrokerWaitThreshold and the threshold is positive.
func (p RetryPolicy) waitsInBroker(d time.Duration) bool {
	return p.BrokerWaitThreshold > 0 && d >= p.BrokerWaitThreshold
}

// String renders p the way the family's fixtures spell a policy, such as
// "exponential(5, 1s, 1m)", "fixed(4, 30s)" or "none()", followed by any
// modifiers that differ from the factory's defaults.
func (p RetryPolicy) String() string {
	return p.base() + p.modifiers()
}

func (p RetryPolicy) base() string {
	switch {
	case p.MaxAttempts == 1:
		return "none()"
	case p.Multiplier == 1:
		return fmt.Sprintf("fixed(%d, %s)", p.MaxAttempts, shortDuration(p.InitialDelay))
	case p.Multiplier == 2:
		return fmt.Sprintf("exponential(%d, %s, %s)", p.MaxAttempts, shortDuration(p.InitialDelay), shortDuration(p.MaxDelay))
	}
	return fmt.Sprintf("custom(%d, %s, ×%g, %s)", p.MaxAttempts, shortDuration(p.InitialDelay), p.Multiplier, shortDuration(p.MaxDelay))
}

func (p RetryPolicy) modifiers() string {
	s := ""
	if p.MaxMessageAge > 0 {
		s += fmt.Sprintf(".giveUpAfter(%s)", shortDuration(p.MaxMessageAge))
	}
	if p.JitterFactor != p.defaultJitter() {
		s += fmt.Sprintf(".withJitter(%g)", p.JitterFactor)
	}
	if p.BrokerWaitThreshold != defaultBrokerWaitThreshold {
		s += fmt.Sprintf(".waitInBrokerFrom(%s)", shortDuration(p.BrokerWaitThreshold))
	}
	return s
}

func (p RetryPolicy) defaultJitter() float64 {
	if p.Multiplier == 2 && p.MaxAttempts != 1 {
		return 0.2
	}
	return 0
}

// shortDuration renders d in the largest unit that divides it exactly
// (24h, 5m, 30s, 500ms), as the family's fixtures write durations.
func shortDuration(d time.Duration) string {
	for _, u := range []struct {
		unit time.Duration
		name string
	}{{time.Hour, "h"}, {time.Minute, "m"}, {time.Second, "s"}, {time.Millisecond, "ms"}} {
		if d != 0 && d%u.unit == 0 {
			return fmt.Sprintf("%d%s", d/u.unit, u.name)
		}
	}
	return d.String()
}
