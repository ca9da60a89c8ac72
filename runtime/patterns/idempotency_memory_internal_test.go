package patterns

import (
	"context"
	"testing"
	"time"
)

// clockedStore returns a store whose clock the test moves with advance.
func clockedStore(ttl time.Duration) (*InMemoryIdempotencyStore, func(time.Duration)) {
	s := NewInMemoryIdempotencyStore(ttl)
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s.now = func() time.Time { return now }
	return s, func(d time.Duration) { now = now.Add(d) }
}

func TestAnUnconfirmedClaimLapsesAfterTheClaimTimeout(t *testing.T) {
	ctx := context.Background()
	s, advance := clockedStore(time.Hour)
	s.SetClaimTimeout(time.Minute)
	_, _ = s.TryClaim(ctx, "k")
	advance(time.Minute - time.Nanosecond)
	if res, _ := s.TryClaim(ctx, "k"); res != InProgress {
		t.Fatalf("just before the timeout the key is %s, want in_progress", res)
	}
	advance(time.Nanosecond)
	if res, _ := s.TryClaim(ctx, "k"); res != Claimed {
		t.Errorf("at the timeout the key is %s, want claimed again", res)
	}
}

func TestTheDefaultClaimTimeoutIsFiveMinutes(t *testing.T) {
	ctx := context.Background()
	s, advance := clockedStore(time.Hour)
	_, _ = s.TryClaim(ctx, "k")
	advance(DefaultClaimTimeout - time.Second)
	if res, _ := s.TryClaim(ctx, "k"); res != InProgress {
		t.Errorf("a claim %s old is %s, want in_progress", DefaultClaimTimeout-time.Second, res)
	}
	s.SetClaimTimeout(0)
	if s.claimTimeout != DefaultClaimTimeout {
		t.Errorf("SetClaimTimeout(0) left %s", s.claimTimeout)
	}
}

func TestAConfirmedKeyIsForgottenAfterTheTTL(t *testing.T) {
	ctx := context.Background()
	s, advance := clockedStore(10 * time.Minute)
	_, _ = s.TryClaim(ctx, "k")
	_ = s.Confirm(ctx, "k")
	advance(10*time.Minute - time.Second)
	if res, _ := s.TryClaim(ctx, "k"); res != Duplicate {
		t.Fatalf("within the ttl the key is %s, want duplicate", res)
	}
	advance(time.Second)
	if res, _ := s.TryClaim(ctx, "k"); res != Claimed {
		t.Errorf("after the ttl the key is %s, want claimed", res)
	}
}

func TestAZeroTTLMeansOneHour(t *testing.T) {
	if s := NewInMemoryIdempotencyStore(0); s.ttl != time.Hour {
		t.Errorf("ttl %s, want 1h", s.ttl)
	}
}

func TestExpiredEntriesAreSweptAsTheStoreIsUsed(t *testing.T) {
	ctx := context.Background()
	s, advance := clockedStore(time.Minute)
	s.SetClaimTimeout(time.Minute)
	for _, k := range []string{"a", "b", "c"} {
		_, _ = s.TryClaim(ctx, k)
	}
	_ = s.Confirm(ctx, "a")
	advance(2 * time.Minute)
	_, _ = s.TryClaim(ctx, "d")
	if n := s.Len(); n != 1 {
		t.Errorf("the store holds %d keys after they all expired and d was claimed, want 1", n)
	}
}
