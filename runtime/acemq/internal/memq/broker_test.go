package memq

import (
	"reflect"
	"testing"
	"time"
)

func TestMemoryWithDeathPrependsAndKeepsTheFirstDeath(t *testing.T) {
	original := map[string]any{"app": "v"}
	first := withDeath(original, map[string]any{"count": int64(1), "reason": "expired", "queue": "rung", "exchange": ""})
	second := withDeath(first, map[string]any{"count": int64(1), "reason": "rejected", "queue": "work", "exchange": "x"})
	deaths := second["x-death"].([]any)
	if len(deaths) != 2 || deaths[0].(map[string]any)["queue"] != "work" || deaths[1].(map[string]any)["queue"] != "rung" {
		t.Fatalf("x-death = %#v, want the latest death first", deaths)
	}
	if second["x-first-death-queue"] != "rung" || second["x-first-death-reason"] != "expired" {
		t.Errorf("x-first-death-* = %v %v, want the first death's", second["x-first-death-queue"], second["x-first-death-reason"])
	}
	if _, touched := original["x-death"]; touched || len(first["x-death"].([]any)) != 1 {
		t.Error("withDeath changed the headers it was given")
	}
}

func TestMemoryARepeatedDeathRaisesTheCountOfAnyIntegerWidth(t *testing.T) {
	earlier := []any{map[string]any{"count": int32(2), "reason": "expired", "queue": "rung"}}
	deaths := recordDeath(earlier, map[string]any{"count": int64(1), "reason": "expired", "queue": "rung"})
	if len(deaths) != 1 || deaths[0].(map[string]any)["count"] != int64(3) {
		t.Fatalf("x-death = %#v, want one entry counted 3", deaths)
	}
}

func TestMemoryQueueWithAConsumerDoesNotExpire(t *testing.T) {
	c := connect(t)
	mustDeclareQueue(t, c, "busy", map[string]any{"x-expires": 60000})
	sub, err := c.Consume("busy", ConsumeSpec{}, func(Delivery) {})
	if err != nil {
		t.Fatal(err)
	}
	b := c.b
	b.mu.Lock()
	q := b.queues["busy"]
	q.used = time.Now().Add(-time.Hour)
	b.mu.Unlock()
	q.checkIdle()
	if _, err := c.MessageCount("busy"); err != nil {
		t.Fatalf("a queue with a consumer expired: %v", err)
	}
	_ = sub.Close()
	b.mu.Lock()
	q.used = time.Now().Add(-time.Hour)
	b.mu.Unlock()
	q.checkIdle()
	if _, err := c.MessageCount("busy"); err == nil {
		t.Error("an unused queue past its x-expires is still there")
	}
}

func TestMemoryAmqExchangesAreDeclaredDurableByKind(t *testing.T) {
	b := New("amq")
	for name, kind := range amqExchanges {
		x, ok := b.exchanges[name]
		if !ok || !reflect.DeepEqual(x.spec, ExchangeSpec{Kind: kind, Durable: true}) {
			t.Errorf("%s = %+v, want a durable %s exchange", name, x, kind)
		}
	}
}

func TestMemoryPublishedHeadersAreStoredAsReceived(t *testing.T) {
	c := connect(t)
	mustDeclareQueue(t, c, "q", nil)
	at := time.Unix(1700000000, 123456789)
	h := map[string]any{"n": 1, "big": 5_000_000_000, "u": uint(2), "l": []string{"a"}, "at": at}
	if _, err := c.Publish("", "q", Message{MessageID: "m", Headers: h}); err != nil {
		t.Fatal(err)
	}
	d, ok, err := c.Pull("q")
	want := map[string]any{"n": int32(1), "big": int64(5_000_000_000), "u": int64(2), "l": []any{"a"}, "at": time.Unix(1700000000, 0)}
	if err != nil || !ok || !reflect.DeepEqual(d.Headers, want) {
		t.Fatalf("pulled headers %#v (%v, %v), want %#v", d.Headers, ok, err, want)
	}
}

func TestMemoryAnInvalidExpirationIsPreconditionFailed(t *testing.T) {
	c := connect(t)
	mustDeclareQueue(t, c, "q", nil)
	_, err := c.Publish("", "q", Message{MessageID: "m", Expiration: "1.5"})
	const want = `memory broker "TestMemoryAnInvalidExpirationIsPreconditionFailed": message m: 406 PRECONDITION_FAILED - invalid expiration "1.5": not a whole number of milliseconds (0 to 2147483647)`
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v, want %s", err, want)
	}
}

func TestMemoryTopicMatchesWordByWord(t *testing.T) {
	cases := []struct {
		pattern, key string
		want         bool
	}{
		{"order.*", "order.placed", true},
		{"order.*", "order.placed.eu", false},
		{"order.*", "order", false},
		{"order.#", "order", true},
		{"order.#", "order.placed.eu", true},
		{"#", "anything.at.all", true},
		{"#", "", true},
		{"*.placed", "order.placed", true},
		{"*.placed", "placed", false},
		{"#.eu", "order.placed.eu", true},
		{"#.eu", "eu", true},
		{"order.#.eu", "order.eu", true},
		{"order.#.eu", "order.x.y.eu", true},
		{"order.#.eu", "order.x.y.us", false},
		{"*.*", "a.b", true},
		{"*.*", "a", false},
		{"a.b", "a.b", true},
		{"a.b", "a.bc", false},
		{"#.#", "a.b.c", true},
		{"*.#", "", false},
	}
	for _, c := range cases {
		if got := topicMatches(c.pattern, c.key); got != c.want {
			t.Errorf("topicMatches(%q, %q) = %v, want %v", c.pattern, c.key, got, c.want)
		}
	}
}
