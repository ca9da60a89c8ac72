package patterns

import (
	"context"
	"time"
)

// DefaultClaimTimeout is how long a claim that was never confirmed nor
// released (its consumer died mid-handler) keeps other consumers off the
// key: the family's value.
const DefaultClaimTimeout = 5 * time.Minute

// IdempotencyStore remembers which messages were handled. Implementations
// must be safe for concurrent use by several consumers.
//
// Claim takes key for the caller: true when nobody held it, false when the
// key is taken (handled already, or being handled). Confirm records that the
// claimed key's message was handled; Release gives an unconfirmed claim back
// so that a redelivery can run the handler again.
type IdempotencyStore interface {
	Claim(ctx context.Context, key string) (bool, error)
	Confirm(ctx context.Context, key string) error
	Release(ctx context.Context, key string) error
}

// TryClaimer is the optional refinement of IdempotencyStore that tells a
// handled key (Duplicate) apart from one another consumer holds right now
// (InProgress). A store without it is treated as the family always treated
// two-valued stores: a key Claim refuses is a duplicate.
type TryClaimer interface {
	TryClaim(ctx context.Context, key string) (ClaimResult, error)
}

// ClaimResult is TryClaim's answer.
type ClaimResult uint8

const (
	// Claimed: the key is the caller's now; run the handler.
	Claimed ClaimResult = iota
	// InProgress: another consumer holds a live, unconfirmed claim on it.
	InProgress
	// Duplicate: the key's message was handled and confirmed.
	Duplicate
)

var claimResultNames = [...]string{Claimed: "claimed", InProgress: "in_progress", Duplicate: "duplicate"}

// String returns claimed, in_progress or duplicate.
func (r ClaimResult) String() string {
	if int(r) < len(claimResultNames) {
		return claimResultNames[r]
	}
	return "unknown"
}
