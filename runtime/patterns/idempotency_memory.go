package patterns

import (
	"context"
	"sync"
	"time"
)

// defaultIdempotencyTTL is how long NewInMemoryIdempotencyStore remembers a
// confirmed key when given no ttl.
const defaultIdempotencyTTL = time.Hour

// InMemoryIdempotencyStore is an IdempotencyStore (and TryClaimer) held in
// the process: it protects one process's consumers from each other and from
// redeliveries, not several processes. Confirmed keys expire ttl after
// confirmation, unconfirmed claims after the claim timeout; expired entries
// are swept as the store is used. Safe for concurrent use.
type InMemoryIdempotencyStore struct {
	mu           sync.Mutex
	ttl          time.Duration
	claimTimeout time.Duration
	entries      map[string]claimEntry
	nextSweep    time.Time
	now          func() time.Time
}

// claimEntry is one key's state: claimed until expires, or confirmed.
type claimEntry struct {
	confirmed bool
	expires   time.Time
}

// NewInMemoryIdempotencyStore returns an empty store that remembers a
// confirmed key for ttl (default 1h when ttl is zero or less) and lets an
// unconfirmed claim lapse after DefaultClaimTimeout (see SetClaimTimeout).
func NewInMemoryIdempotencyStore(ttl time.Duration) *InMemoryIdempotencyStore {
	if ttl <= 0 {
		ttl = defaultIdempotencyTTL
	}
	return &InMemoryIdempotencyStore{
		ttl: ttl, claimTimeout: DefaultClaimTimeout, entries: make(map[string]claimEntry), now: time.Now,
	}
}

// SetClaimTimeout sets how long an unconfirmed claim keeps other consumers
// off its key (default DefaultClaimTimeout; zero or less restores it). It
// applies to claims taken from now on.
func (s *InMemoryIdempotencyStore) SetClaimTimeout(d time.Duration) {
	if d <= 0 {
		d = DefaultClaimTimeout
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.claimTimeout = d
}

// Claim takes key when nobody holds it: true when the caller has it now.
func (s *InMemoryIdempotencyStore) Claim(ctx context.Context, key string) (bool, error) {
	res, err := s.TryClaim(ctx, key)
	return res == Claimed, err
}

// TryClaim takes key when nobody holds it (Claimed), and otherwise says
// whether it was handled (Duplicate) or is being handled (InProgress).
func (s *InMemoryIdempotencyStore) TryClaim(_ context.Context, key string) (ClaimResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	s.sweep(now)
	if e, ok := s.entries[key]; ok && now.Before(e.expires) {
		if e.confirmed {
			return Duplicate, nil
		}
		return InProgress, nil
	}
	s.entries[key] = claimEntry{expires: now.Add(s.claimTimeout)}
	return Claimed, nil
}

// Confirm records key as handled, for the store's ttl, whether or not its
// claim had lapsed.
func (s *InMemoryIdempotencyStore) Confirm(_ context.Context, key string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.entries[key] = claimEntry{confirmed: true, expires: s.now().Add(s.ttl)}
	return nil
}

// Release gives back an unconfirmed claim on key; a confirmed key stays.
func (s *InMemoryIdempotencyStore) Release(_ context.Context, key string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.entries[key]; ok && !e.confirmed {
		delete(s.entries, key)
	}
	return nil
}

// Len returns how many keys the store holds, expired ones not yet swept
// included.
func (s *InMemoryIdempotencyStore) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.entries)
}

// sweep drops expired entries, at most once per claim timeout; s.mu is held.
func (s *InMemoryIdempotencyStore) sweep(now time.Time) {
	if now.Before(s.nextSweep) {
		return
	}
	for key, e := range s.entries {
		if !now.Before(e.expires) {
			delete(s.entries, key)
		}
	}
	s.nextSweep = now.Add(min(s.claimTimeout, s.ttl))
}
