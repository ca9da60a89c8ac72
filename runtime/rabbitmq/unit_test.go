package rabbitmq

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

func TestDefaultsAreTheFamilyNumbers(t *testing.T) {
	c := defaultConfig()
	if c.maxOutstanding != 1000 || !c.confirms || c.delay.min != time.Second || c.delay.max != 30*time.Second {
		t.Fatalf("defaults = %+v, want 1000 outstanding, confirms on, 1s..30s", c)
	}
}

func TestDialAppliesThisPackagesOptions(t *testing.T) {
	cfg := defaultConfig()
	called := false
	opts := []acemq.ConnOption{MaxOutstandingPublishes(7), WithoutConfirms(), Name("orders"),
		RecoveryDelay(time.Millisecond, time.Second), OnRecovery(func(RecoveryEvent) { called = true })}
	for _, o := range opts {
		if err := applyForDial(o, &cfg); err != nil {
			t.Fatal(err)
		}
	}
	cfg.onRecovery(RecoveryEvent{})
	if cfg.maxOutstanding != 7 || cfg.confirms || cfg.name != "orders" || cfg.delay.max != time.Second || !called {
		t.Fatalf("config after options = %+v", cfg)
	}
}

func TestDialRefusesInvalidOptionsBeforeConnecting(t *testing.T) {
	cases := map[string]acemq.ConnOption{
		"MaxOutstandingPublishes": MaxOutstandingPublishes(0),
		"OnRecovery":              OnRecovery(nil),
		"RecoveryDelay":           RecoveryDelay(time.Second, time.Millisecond),
	}
	for name, opt := range cases {
		_, err := Dial(context.Background(), "amqp://127.0.0.1:1/", opt)
		if err == nil || !strings.Contains(err.Error(), name) || !strings.HasPrefix(err.Error(), "acemq: ") {
			t.Errorf("%s: err = %v, want an acemq error naming %s", name, err, name)
		}
	}
}

func TestDialToNothingFailsWithoutThePassword(t *testing.T) {
	_, err := Dial(context.Background(), "amqp://user:s3cret@127.0.0.1:1/")
	if err == nil || strings.Contains(err.Error(), "s3cret") || !strings.Contains(err.Error(), "127.0.0.1:1") {
		t.Fatalf("err = %v, want a connect error naming the address and not the password", err)
	}
}

func TestFullWindowFailsNamingMaxOutstandingPublishesAndWaiters(t *testing.T) {
	w := newWindow(1)
	if err := w.acquire(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Millisecond)
	defer cancel()
	err := w.acquire(ctx)
	if err == nil || !strings.Contains(err.Error(), "MaxOutstandingPublishes") ||
		!strings.Contains(err.Error(), "1 publishes are waiting") || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want MaxOutstandingPublishes, the waiting count and the ctx error", err)
	}
}

func TestReleasedSlotLetsAWaitingPublishIn(t *testing.T) {
	w := newWindow(1)
	_ = w.acquire(context.Background())
	got := make(chan error)
	go func() { got <- w.acquire(context.Background()) }()
	w.release()
	if err := <-got; err != nil {
		t.Fatal(err)
	}
}

func TestReturnsAreFiledByMessageID(t *testing.T) {
	in := make(chan amqp.Return)
	r := newReturnLog(in)
	in <- amqp.Return{MessageId: "b", ReplyCode: 312, ReplyText: "NO_ROUTE"}
	if _, ok := r.returned("a"); ok {
		t.Fatal("message a was reported returned")
	}
	reason, ok := r.returned("b")
	if !ok || reason != "312 NO_ROUTE" {
		t.Fatalf("returned(b) = %q, %v; want 312 NO_ROUTE", reason, ok)
	}
	if _, ok := r.returned("b"); ok {
		t.Fatal("a return was claimed twice")
	}
	close(in)
}

func TestUnclaimedReturnsAreEvictedBeyondTheBound(t *testing.T) {
	in := make(chan amqp.Return)
	r := newReturnLog(in)
	for i := range maxUnclaimedReturns + 1 {
		in <- amqp.Return{MessageId: string(rune('A' + i)), ReplyCode: 312, ReplyText: "NO_ROUTE"}
	}
	close(in)
	<-r.done
	if _, ok := r.returned("A"); ok {
		t.Fatal("the oldest unclaimed return was kept beyond the bound")
	}
	if _, ok := r.returned(string(rune('A' + maxUnclaimedReturns))); !ok {
		t.Fatal("the newest return was lost")
	}
}

func TestHeadersConvertBothWays(t *testing.T) {
	in := map[string]any{"s": "x", "n": 3, "u": uint64(4), "l": []string{"a"}, "m": map[string]any{"k": int64(1)}}
	tab, err := toTable(in)
	if err != nil {
		t.Fatal(err)
	}
	if err := tab.Validate(); err != nil {
		t.Fatalf("amqp091 refuses the converted table: %v", err)
	}
	back := fromTable(tab)
	if m, ok := back["m"].(map[string]any); !ok || m["k"] != int64(1) {
		t.Fatalf("nested table came back as %#v", back["m"])
	}
}

func TestHeaderOfAnUnsupportedTypeIsRefusedNamingIt(t *testing.T) {
	_, err := toTable(map[string]any{"bad": struct{}{}})
	if err == nil || !strings.Contains(err.Error(), `"bad"`) {
		t.Fatalf("err = %v, want an error naming the header", err)
	}
}

func TestAnIntBeyond32BitsIsSentAs64NotTruncated(t *testing.T) {
	small, _ := toField(7)
	big, _ := toField(5_000_000_000)
	if _, ok := small.(int); !ok {
		t.Errorf("small int became %T, want int (amqp091 writes it as 32 bits, like the family)", small)
	}
	if big != int64(5_000_000_000) {
		t.Errorf("big int became %#v, want int64(5000000000)", big)
	}
	if _, err := toField(uint64(math.MaxUint64)); err == nil {
		t.Error("a uint64 beyond int64 was accepted")
	}
}

func TestAnExpirationThatIsNotWholeMillisecondsIsRefusedBeforeSending(t *testing.T) {
	for _, bad := range []string{"abc", "-1", "1.5", "99999999999"} {
		_, err := toPublishing(driver.Outbound{MessageID: "m", Expiration: bad})
		if err == nil || !strings.Contains(err.Error(), "expiration") || !strings.Contains(err.Error(), "message m") {
			t.Errorf("expiration %q: err = %v, want a refusal naming the message and the expiration", bad, err)
		}
	}
	if _, err := toPublishing(driver.Outbound{Expiration: "60000"}); err != nil {
		t.Errorf("expiration 60000 refused: %v", err)
	}
}

func TestAPrefetchBeyondAMQPsSixteenBitsIsRefusedNotTruncated(t *testing.T) {
	tr := &Transport{}
	_, err := tr.Consume(context.Background(), "q", driver.ConsumeSpec{Prefetch: 70000}, func(driver.Delivery) {})
	if err == nil || !strings.Contains(err.Error(), "70000") || !strings.Contains(err.Error(), "65535") {
		t.Fatalf("err = %v, want the prefetch and the limit named", err)
	}
}
