package generator

import (
	"time"
)

// defaultRetry is the format's default policy: 5 attempts, exponential 1s..1m.
var defaultRetry = retry{Attempts: 5, Backoff: "exponential", Initial: time.Second, Max: time.Minute}

// retryOf applies the keys of s over base, key by key, and checks the result.
func (r *resolver) retryOf(s *syntaxRetry, base retry) retry {
	if s == nil {
		return base
	}
	out := base
	r.attempts(s.Attempts, &out)
	if s.Backoff.Set {
		out.Backoff = s.Backoff.V
		if s.Backoff.V != "exponential" && s.Backoff.V != "fixed" {
			r.d.errorf(s.Backoff.P, "bad retry backoff %q: exponential or fixed", s.Backoff.V)
		}
	}
	r.durations(s, &out)
	if out.Backoff == "exponential" && out.Max < out.Initial {
		r.d.errorf(s.P, "retry max %s is shorter than initial %s", out.Max, out.Initial)
	}
	return out
}

func (r *resolver) attempts(a sInt, out *retry) {
	if !a.Set {
		return
	}
	out.Attempts = a.V
	if a.V < 1 {
		r.d.errorf(a.P, "retry attempts must be at least 1 (it counts the first delivery)")
	}
}

func (r *resolver) durations(s *syntaxRetry, out *retry) {
	for _, k := range []struct {
		s   sStr
		dst *time.Duration
		key string
	}{{s.Initial, &out.Initial, "initial"}, {s.Max, &out.Max, "max"}, {s.MaxAge, &out.MaxAge, "max-age"}} {
		if k.s.Set {
			*k.dst = r.duration(k.s, "retry "+k.key)
		}
	}
}

// duration parses a positive Go duration.
func (r *resolver) duration(s sStr, what string) time.Duration {
	d, err := time.ParseDuration(s.V)
	switch {
	case err != nil:
		r.d.errorf(s.P, "bad duration %q for %s: use Go syntax such as 500ms, 30s or 1m", s.V, what)
	case d <= 0:
		r.d.errorf(s.P, "bad duration %q for %s: it must be positive", s.V, what)
	}
	return d
}
