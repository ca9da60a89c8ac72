package acemq

import (
	"maps"
	"testing"
	"time"
)

func TestRungQueueRendersTheLargestExactUnit(t *testing.T) {
	cases := map[time.Duration]string{
		30 * time.Second: "q.retry.30s", 90 * time.Second: "q.retry.90s", 5 * time.Minute: "q.retry.5m",
		2 * time.Hour: "q.retry.2h", 160 * time.Second: "q.retry.160s", 48 * time.Hour: "q.retry.48h",
		500 * time.Millisecond: "q.retry.0s", 1500 * time.Millisecond: "q.retry.1s", 0: "q.retry.0s",
	}
	for d, want := range cases {
		if got := RungQueue("q", d); got != want {
			t.Errorf("RungQueue(%s) = %q, want %q", d, got, want)
		}
	}
}

func TestDeadLetterAndParkedQueueNames(t *testing.T) {
	if DeadLetterQueue("orders.new") != "orders.new.dlq" || ParkedQueue("orders.new") != "orders.new.parked" {
		t.Errorf("%q %q", DeadLetterQueue("orders.new"), ParkedQueue("orders.new"))
	}
}

func TestRungArgsAreExactlyThreeWithAnInt64TTL(t *testing.T) {
	got := RungArgs("orders", 30*time.Second)
	want := map[string]any{"x-message-ttl": int64(30000), "x-dead-letter-exchange": "acemq.retry", "x-dead-letter-routing-key": "orders"}
	if !maps.Equal(got, want) {
		t.Errorf("RungArgs = %#v, want %#v", got, want)
	}
	got["x"] = 1
	if len(RungArgs("orders", 30*time.Second)) != 3 {
		t.Errorf("RungArgs shares its map between calls")
	}
}
