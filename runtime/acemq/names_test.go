package acemq

import (
	"maps"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

func TestRungQueueRendersTheLargestExactUnit(t *testing.T) {
	cases := map[time.Duration]string{
		30 * time.Second: "q.retry.30s", 90 * time.Second: "q.retry.90s", 5 * time.Minute: "q.retry.5m",
		2 * time.Hour: "q.retry.2h", 160 * time.Second: "q.retry.160s", 48 * time.Hour: "q.retry.48h",
		500 * time.Millisecond: "q.retry.500ms", 1500 * time.Millisecond: "q.retry.1500ms", 0: "q.retry.0s",
	}
	for d, want := range cases {
		if got := RungQueue("q", d); got != want {
			t.Errorf("RungQueue(%s) = %q, want %q", d, got, want)
		}
	}
}

// TestRungNamesNeverCollide: two delays the broker tells apart (a TTL is whole
// milliseconds) never share a rung; rounding to whole seconds once put 1s and
// 1500ms on one queue, whose TTL was whichever the topology declared first.
func TestRungNamesNeverCollide(t *testing.T) {
	if a, b := RungQueue("q", time.Second), RungQueue("q", 1500*time.Millisecond); a == b {
		t.Fatalf("1s and 1500ms share the rung %q", a)
	}
	seen := map[string]time.Duration{}
	for _, d := range rungDelaysToCompare() {
		name := RungQueue("q", d)
		if prev, dup := seen[name]; dup && prev != d {
			t.Fatalf("%s and %s share the rung %q", prev, d, name)
		}
		seen[name] = d
		if ttl := RungArgs("q", d)[driver.ArgMessageTTL]; ttl != d.Milliseconds() {
			t.Fatalf("rung %q holds %v ms, want %d", name, ttl, d.Milliseconds())
		}
	}
}

// rungDelaysToCompare is every millisecond of the first five minutes and
// every whole second of two days.
func rungDelaysToCompare() []time.Duration {
	var out []time.Duration
	for ms := range 5 * 60 * 1000 {
		out = append(out, time.Duration(ms)*time.Millisecond)
	}
	for s := range 48 * 3600 {
		out = append(out, time.Duration(s)*time.Second)
	}
	return out
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
