package acemq

import (
	"slices"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

func TestBrokerRungsAreDistinctInFirstAppearanceOrder(t *testing.T) {
	p := ExponentialRetry(6, 10*time.Second, 0)
	if got, want := p.BrokerRungs(), []time.Duration{40 * time.Second, 80 * time.Second, 160 * time.Second}; !slices.Equal(got, want) {
		t.Errorf("BrokerRungs = %v, want %v", got, want)
	}
	if got := FixedRetry(5, time.Minute).BrokerRungs(); !slices.Equal(got, []time.Duration{time.Minute}) {
		t.Errorf("fixed one-minute rungs = %v, want one", got)
	}
	if got := DefaultRetryPolicy().BrokerRungs(); len(got) != 0 || DefaultRetryPolicy().HasBrokerWaits() {
		t.Errorf("a short policy has rungs %v", got)
	}
}

func TestRungForRoundsUpAndFallsBackToTheLongest(t *testing.T) {
	p := ExponentialRetry(6, 10*time.Second, 0)
	cases := map[time.Duration]time.Duration{
		time.Second: 40 * time.Second, 40 * time.Second: 40 * time.Second, 41 * time.Second: 80 * time.Second,
		160 * time.Second: 160 * time.Second, time.Hour: 160 * time.Second,
	}
	for d, want := range cases {
		if got := p.RungFor(d); got != want {
			t.Errorf("RungFor(%s) = %s, want %s", d, got, want)
		}
	}
	if got := DefaultRetryPolicy().RungFor(time.Hour); got != 0 {
		t.Errorf("RungFor without rungs = %s, want 0", got)
	}
}

func TestLadderForNamesEachRungWithItsArguments(t *testing.T) {
	ladder := LadderFor("orders", FixedRetry(3, 90*time.Second))
	if len(ladder) != 1 || ladder[0].Queue != "orders.retry.90s" || ladder[0].Delay != 90*time.Second ||
		ladder[0].Args[driver.ArgMessageTTL] != int64(90000) {
		t.Errorf("ladder = %+v", ladder)
	}
}
