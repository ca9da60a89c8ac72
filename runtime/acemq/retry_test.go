package acemq

import (
	"slices"
	"strings"
	"testing"
	"time"
)

func TestFactoriesSetTheFamilyValues(t *testing.T) {
	cases := map[string]struct {
		got, want RetryPolicy
	}{
		"none":        {NoRetry(), RetryPolicy{MaxAttempts: 1, Multiplier: 1, BrokerWaitThreshold: 30 * time.Second}},
		"fixed":       {FixedRetry(4, 30*time.Second), RetryPolicy{MaxAttempts: 4, InitialDelay: 30 * time.Second, Multiplier: 1, BrokerWaitThreshold: 30 * time.Second}},
		"exponential": {ExponentialRetry(5, time.Second, time.Hour), RetryPolicy{MaxAttempts: 5, InitialDelay: time.Second, Multiplier: 2, MaxDelay: time.Hour, JitterFactor: 0.2, BrokerWaitThreshold: 30 * time.Second}},
		"default":     {DefaultRetryPolicy(), ExponentialRetry(5, time.Second, time.Minute)},
	}
	for name, c := range cases {
		if c.got != c.want {
			t.Errorf("%s: %+v, want %+v", name, c.got, c.want)
		}
	}
}

func TestDefaultRetryPolicyIsBounded(t *testing.T) {
	p := DefaultRetryPolicy()
	if err := p.Validate(); err != nil || p.Retries(5, 0) || !p.Retries(4, 0) {
		t.Errorf("default policy %v: want 5 attempts, valid (err %v)", p, err)
	}
}

func TestModifiersReturnChangedCopies(t *testing.T) {
	base := DefaultRetryPolicy()
	p := base.GiveUpAfter(time.Hour).WithJitter(0.5).WaitInBrokerFrom(time.Minute)
	if p.MaxMessageAge != time.Hour || p.JitterFactor != 0.5 || p.BrokerWaitThreshold != time.Minute {
		t.Errorf("modified policy %+v", p)
	}
	if base != DefaultRetryPolicy() {
		t.Errorf("a modifier changed its receiver: %+v", base)
	}
}

func TestValidateRefusesOutOfRangeFieldsWithTheFamilyMessages(t *testing.T) {
	cases := map[string]struct {
		p    RetryPolicy
		want string
	}{
		"attempts":   {FixedRetry(0, time.Second), "acemq: RetryPolicy.MaxAttempts must be at least 1, got 0"},
		"multiplier": {RetryPolicy{MaxAttempts: 2, Multiplier: 0.5}, "acemq: RetryPolicy.Multiplier must be at least 1, got 0.5"},
		"jitter":     {DefaultRetryPolicy().WithJitter(1.5), "acemq: RetryPolicy.JitterFactor must be between 0 and 1, got 1.5"},
		"negative":   {DefaultRetryPolicy().WithJitter(-0.1), "acemq: RetryPolicy.JitterFactor must be between 0 and 1, got -0.1"},
		"delay":      {FixedRetry(2, -time.Second), "acemq: RetryPolicy.InitialDelay must not be negative, got -1s"},
		"age":        {NoRetry().GiveUpAfter(-time.Second), "acemq: RetryPolicy.MaxMessageAge must not be negative, got -1s"},
	}
	for name, c := range cases {
		if err := c.p.Validate(); err == nil || err.Error() != c.want {
			t.Errorf("%s: err = %v, want %s", name, err, c.want)
		}
	}
	if err := (RetryPolicy{}).Validate(); err == nil {
		t.Errorf("the zero policy validated")
	}
}

func TestScheduleGrowsAndCapsAtMaxDelay(t *testing.T) {
	s := func(ds ...int) []time.Duration {
		out := []time.Duration{}
		for _, d := range ds {
			out = append(out, time.Duration(d)*time.Second)
		}
		return out
	}
	cases := map[string]struct {
		p    RetryPolicy
		want []time.Duration
	}{
		"uncapped":  {ExponentialRetry(5, time.Second, 0), s(1, 2, 4, 8)},
		"capped":    {ExponentialRetry(6, 10*time.Second, time.Minute), s(10, 20, 40, 60, 60)},
		"fixed":     {FixedRetry(4, 30*time.Second), s(30, 30, 30)},
		"one try":   {NoRetry(), s()},
		"immediate": {FixedRetry(3, 0), s(0, 0)},
	}
	for name, c := range cases {
		if got := c.p.Schedule(); !slices.Equal(got, c.want) {
			t.Errorf("%s: Schedule = %v, want %v", name, got, c.want)
		}
	}
}

func TestDelayAfterMatchesTheScheduleAndSaturates(t *testing.T) {
	p := ExponentialRetry(5, time.Second, 0)
	for i, d := range p.Schedule() {
		if got := p.DelayAfter(i + 1); got != d {
			t.Errorf("DelayAfter(%d) = %s, schedule says %s", i+1, got, d)
		}
	}
	if p.DelayAfter(0) != 0 || p.DelayAfter(200) <= 0 {
		t.Errorf("DelayAfter(0) = %s, DelayAfter(200) = %s: want 0 and a saturated positive wait", p.DelayAfter(0), p.DelayAfter(200))
	}
}

func TestRetriesStopsAtMaxAttemptsAndAtTheAgeLimit(t *testing.T) {
	p := FixedRetry(3, time.Second).GiveUpAfter(time.Minute)
	cases := []struct {
		attempt int
		age     time.Duration
		want    bool
	}{
		{1, 0, true}, {2, 59 * time.Second, true}, {3, 0, false},
		{1, time.Minute, false}, {1, 2 * time.Minute, false}, {1, -1, true},
	}
	for _, c := range cases {
		if got := p.Retries(c.attempt, c.age); got != c.want {
			t.Errorf("Retries(%d, %s) = %v, want %v", c.attempt, c.age, got, c.want)
		}
	}
}

func TestJitterIsUniformWithinTheFactorAndZeroFactorIsExact(t *testing.T) {
	p := DefaultRetryPolicy().WithJitter(0.5)
	var below, above int
	for range 2000 {
		got := p.Jitter(10 * time.Second)
		if got < 5*time.Second || got > 15*time.Second {
			t.Fatalf("Jitter(10s) = %s, outside [5s, 15s]", got)
		}
		if got < 10*time.Second {
			below++
		} else {
			above++
		}
	}
	if below < 800 || above < 800 {
		t.Errorf("%d below and %d above the delay: not spread both ways", below, above)
	}
	if got := FixedRetry(2, time.Second).Jitter(7 * time.Second); got != 7*time.Second {
		t.Errorf("zero jitter changed the wait to %s", got)
	}
}

func TestJitterNeverGoesBelowOneMillisecond(t *testing.T) {
	p := DefaultRetryPolicy().WithJitter(1)
	for range 500 {
		if got := p.Jitter(2 * time.Millisecond); got < time.Millisecond {
			t.Fatalf("Jitter(2ms) = %s, below the floor", got)
		}
	}
	if got := NoRetry().Jitter(0); got != time.Millisecond {
		t.Errorf("Jitter(0) = %s, want the 1ms floor", got)
	}
}

func TestWaitsInBrokerFromTheThresholdAndNeverWithThresholdZero(t *testing.T) {
	p := DefaultRetryPolicy()
	if p.WaitsInBroker(30*time.Second-1) || !p.WaitsInBroker(30*time.Second) {
		t.Errorf("the 30s threshold is not inclusive")
	}
	if p.WaitInBrokerFrom(0).WaitsInBroker(time.Hour) {
		t.Errorf("threshold 0 sent a wait to the broker")
	}
}

func TestRetryPolicyStringSpellsTheFactory(t *testing.T) {
	cases := map[string]RetryPolicy{
		"exponential(5, 1s, 1m)": DefaultRetryPolicy(),
		"fixed(4, 30s)":          FixedRetry(4, 30*time.Second),
		"none()":                 NoRetry(),
		"exponential(5, 1s, 24h).giveUpAfter(2m)":              ExponentialRetry(5, time.Second, 24*time.Hour).GiveUpAfter(2 * time.Minute),
		"fixed(2, 500ms).withJitter(0.1).waitInBrokerFrom(0s)": FixedRetry(2, 500*time.Millisecond).WithJitter(0.1).WaitInBrokerFrom(0),
	}
	for want, p := range cases {
		if got := p.String(); got != want {
			t.Errorf("String() = %q, want %q", got, want)
		}
	}
	if s := (RetryPolicy{MaxAttempts: 3, InitialDelay: time.Second, Multiplier: 3}).String(); !strings.HasPrefix(s, "custom(3, 1s, ×3") {
		t.Errorf("custom policy String() = %q", s)
	}
}
