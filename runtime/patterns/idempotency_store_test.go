package patterns_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/patterns"
)

// fakeStore is a scripted two-valued IdempotencyStore, counting its
// Confirms and Releases; triStore adds TryClaim.
type fakeStore struct {
	claimed                          bool
	claimErr, confirmErr, releaseErr error
	confirms, releases               atomic.Int32
}

func (s *fakeStore) Claim(context.Context, string) (bool, error) { return s.claimed, s.claimErr }
func (s *fakeStore) Confirm(context.Context, string) error {
	s.confirms.Add(1)
	return s.confirmErr
}
func (s *fakeStore) Release(context.Context, string) error {
	s.releases.Add(1)
	return s.releaseErr
}

// triStore answers TryClaim with res.
type triStore struct {
	fakeStore
	res patterns.ClaimResult
}

func (s *triStore) TryClaim(context.Context, string) (patterns.ClaimResult, error) { return s.res, nil }

// guarded runs a handler answering ack through WithIdempotency(store) and
// reports its Ack and whether the handler ran.
func guarded(store patterns.IdempotencyStore, ack acemq.Ack, opts ...patterns.IdempotencyOption) (acemq.Ack, bool) {
	ran := false
	h := patterns.Chain(func(context.Context, acemq.Message[order]) acemq.Ack {
		ran = true
		return ack
	}, patterns.WithIdempotency[order](store, opts...))
	return h(context.Background(), message("m-1")), ran
}

func TestTryClaimAnswersClaimedThenInProgressThenDuplicate(t *testing.T) {
	ctx := context.Background()
	store := patterns.NewInMemoryIdempotencyStore(0)
	var got []patterns.ClaimResult
	first, _ := store.TryClaim(ctx, "k")
	second, _ := store.TryClaim(ctx, "k")
	_ = store.Confirm(ctx, "k")
	third, _ := store.TryClaim(ctx, "k")
	got = append(got, first, second, third)
	if first != patterns.Claimed || second != patterns.InProgress || third != patterns.Duplicate {
		t.Errorf("TryClaim answered %v, want [claimed in_progress duplicate]", got)
	}
}

func TestTheGuardFollowsEachOfTryClaimsThreeAnswers(t *testing.T) {
	cases := []struct {
		res  patterns.ClaimResult
		want string
		ran  bool
	}{
		{patterns.Claimed, "park", true},
		{patterns.InProgress, "in_progress", false},
		{patterns.Duplicate, "accept", false},
	}
	for _, tc := range cases {
		ack, ran := guarded(&triStore{res: tc.res}, acemq.Park(errors.New("look")))
		if ack.String() != tc.want || ran != tc.ran {
			t.Errorf("%s: got %s (handler ran %v), want %s (ran %v)", tc.res, ack, ran, tc.want, tc.ran)
		}
	}
}

func TestALegacyTwoValuedStoreTreatsARefusedClaimAsADuplicate(t *testing.T) {
	store := &fakeStore{claimed: false}
	ack, ran := guarded(store, acemq.Reject(errors.New("never")))
	if ack.String() != "accept" || ran {
		t.Errorf("got %s (handler ran %v), want accept without running", ack, ran)
	}
}

func TestAnAcceptedMessageIsConfirmedAndNotReleased(t *testing.T) {
	store := &fakeStore{claimed: true}
	if ack, ran := guarded(store, acemq.Accept()); ack.String() != "accept" || !ran {
		t.Fatalf("got %s (ran %v)", ack, ran)
	}
	if store.confirms.Load() != 1 || store.releases.Load() != 0 {
		t.Errorf("%d confirms, %d releases; want 1 and 0", store.confirms.Load(), store.releases.Load())
	}
}

func TestAStoreErrorOnClaimRetriesWithoutRunningTheHandler(t *testing.T) {
	down := errors.New("store down")
	ack, ran := guarded(&fakeStore{claimErr: down}, acemq.Accept())
	if !ack.IsRetry() || !errors.Is(ack.Err(), down) || ran {
		t.Errorf("got %s (%v, ran %v), want a retry wrapping the store's error", ack, ack.Err(), ran)
	}
	if got := ack.Err().Error(); got != `acemq: cannot claim idempotency key "m-1": store down` {
		t.Errorf("error %q", got)
	}
}

func TestAStoreErrorOnConfirmRetries(t *testing.T) {
	down := errors.New("store down")
	ack, _ := guarded(&fakeStore{claimed: true, confirmErr: down}, acemq.Accept())
	if !ack.IsRetry() || !errors.Is(ack.Err(), down) {
		t.Errorf("got %s (%v), want a retry wrapping the store's error", ack, ack.Err())
	}
}

func TestAFailedReleaseOfARetryWaitsAsInProgress(t *testing.T) {
	store := &fakeStore{claimed: true, releaseErr: errors.New("store down")}
	ack, _ := guarded(store, acemq.Retry(errors.New("ledger down")))
	if !ack.IsInProgress() || ack.Delay() != acemq.DefaultInProgressDelay {
		t.Errorf("got %s after %s, want in_progress after the default delay", ack, ack.Delay())
	}
	if ack, _ := guarded(store, acemq.Retry(acemq.Fatalf("poison"))); !ack.IsRetry() {
		t.Errorf("a fatal retry became %s; it must still dead-letter", ack)
	}
}

func TestInMemoryStoreGrantsAKeyToExactlyOneOfManyConcurrentClaimers(t *testing.T) {
	store := patterns.NewInMemoryIdempotencyStore(0)
	var winners atomic.Int32
	var wg sync.WaitGroup
	for range 32 {
		wg.Go(func() {
			if ok, _ := store.Claim(context.Background(), "k"); ok {
				winners.Add(1)
			}
		})
	}
	wg.Wait()
	if n := winners.Load(); n != 1 {
		t.Errorf("%d claimers won the key, want 1", n)
	}
}

func TestReleaseLeavesAConfirmedKeyAlone(t *testing.T) {
	ctx := context.Background()
	store := patterns.NewInMemoryIdempotencyStore(0)
	_, _ = store.Claim(ctx, "k")
	_ = store.Confirm(ctx, "k")
	_ = store.Release(ctx, "k")
	if res, _ := store.TryClaim(ctx, "k"); res != patterns.Duplicate {
		t.Errorf("a released confirmed key is %s, want duplicate", res)
	}
}

func TestClaimResultsNameThemselves(t *testing.T) {
	got := []string{patterns.Claimed.String(), patterns.InProgress.String(), patterns.Duplicate.String()}
	if got[0] != "claimed" || got[1] != "in_progress" || got[2] != "duplicate" {
		t.Errorf("names %v", got)
	}
}
