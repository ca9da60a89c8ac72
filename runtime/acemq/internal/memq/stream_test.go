package memq

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// streamOf declares a stream queue with args and appends n records "r0".."rN-1".
func streamOf(t *testing.T, c *Conn, name string, args map[string]any, n int) {
	t.Helper()
	all := map[string]any{ArgQueueType: QueueStream}
	for k, v := range args {
		all[k] = v
	}
	mustDeclareQueue(t, c, name, all)
	for i := range n {
		mustPublish(t, c, "", name, fmt.Sprint("r", i))
	}
}

// read subscribes from offset arg and returns the first want bodies with
// their x-stream-offset, acking each.
func read(t *testing.T, c *Conn, queue string, arg any, want int) []string {
	t.Helper()
	got := make(chan string, 100)
	sub, err := c.Consume(queue, ConsumeSpec{Prefetch: 2, Args: map[string]any{ArgStreamOffset: arg}}, func(d Delivery) {
		got <- fmt.Sprintf("%d:%s", d.Headers[ArgStreamOffset], d.Body)
		_ = d.Acker.Ack()
	})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	var out []string
	for range want {
		select {
		case s := <-got:
			out = append(out, s)
		case <-time.After(2 * time.Second):
			t.Fatalf("read %v from %v, want %d records", out, arg, want)
		}
	}
	select {
	case s := <-got:
		t.Fatalf("read %v then %s from %v, want only %d records", out, s, arg, want)
	case <-time.After(20 * time.Millisecond):
	}
	return out
}

func TestMemoryStreamReadsFromEveryPositionWithoutConsumingRecords(t *testing.T) {
	c := connect(t)
	streamOf(t, c, "log", nil, 4)
	cases := []struct {
		arg  any
		want []string
	}{
		{"first", []string{"0:r0", "1:r1", "2:r2", "3:r3"}},
		{"last", []string{"3:r3"}},
		{int64(2), []string{"2:r2", "3:r3"}},
		{int64(-5), []string{"0:r0", "1:r1", "2:r2", "3:r3"}},
		{time.Now().Add(-time.Hour), []string{"0:r0", "1:r1", "2:r2", "3:r3"}},
		{"first", []string{"0:r0", "1:r1", "2:r2", "3:r3"}}, // reads consumed nothing
	}
	for _, tc := range cases {
		if got := read(t, c, "log", tc.arg, len(tc.want)); !slices.Equal(got, tc.want) {
			t.Errorf("from %v read %v, want %v", tc.arg, got, tc.want)
		}
	}
}

func TestMemoryStreamNextAndAFutureOffsetWaitForAppends(t *testing.T) {
	c := connect(t)
	streamOf(t, c, "log", nil, 2)
	got := make(chan string, 10)
	for _, arg := range []any{"next", int64(3)} {
		_, err := c.Consume("log", ConsumeSpec{Prefetch: 1, Args: map[string]any{ArgStreamOffset: arg}}, func(d Delivery) {
			got <- fmt.Sprintf("%v@%d:%s", arg, d.Headers[ArgStreamOffset], d.Body)
			_ = d.Acker.Ack()
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	mustPublish(t, c, "", "log", "r2")
	mustPublish(t, c, "", "log", "r3")
	var all []string
	for range 3 {
		select {
		case s := <-got:
			all = append(all, s)
		case <-time.After(2 * time.Second):
			t.Fatalf("got %v, want next to read r2 and r3 and offset 3 to read r3", all)
		}
	}
	slices.Sort(all)
	if want := []string{"3@3:r3", "next@2:r2", "next@3:r3"}; !slices.Equal(all, want) {
		t.Errorf("got %v, want %v", all, want)
	}
}

func TestMemoryStreamSinceStartsAtTheFirstRecordAppendedAtOrAfterTheSecond(t *testing.T) {
	c := connect(t)
	streamOf(t, c, "log", nil, 2)
	b := c.b
	b.mu.Lock()
	b.queues["log"].log.records[0].at = time.Now().Add(-time.Minute)
	b.mu.Unlock()
	if got := read(t, c, "log", time.Now().Add(-30*time.Second), 1); !slices.Equal(got, []string{"1:r1"}) {
		t.Errorf("since 30s ago read %v, want only the record appended since", got)
	}
}

func TestMemoryStreamRetentionDropsRecordsFromTheHead(t *testing.T) {
	cases := []struct {
		name string
		args map[string]any
		want []string
	}{
		{"count", map[string]any{"x-max-length": 2}, []string{"2:r2", "3:r3"}},
		{"bytes", map[string]any{"x-max-length-bytes": 5}, []string{"2:r2", "3:r3"}},
		{"newest-kept", map[string]any{"x-max-length-bytes": 1}, []string{"3:r3"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := connect(t)
			streamOf(t, c, "log", tc.args, 4)
			if got := read(t, c, "log", "first", len(tc.want)); !slices.Equal(got, tc.want) {
				t.Errorf("read %v, want %v", got, tc.want)
			}
		})
	}
}

func TestMemoryStreamMaxAgeDropsOldRecordsButKeepsTheNewest(t *testing.T) {
	c := connect(t)
	streamOf(t, c, "log", map[string]any{"x-max-age": "1s"}, 3)
	b := c.b
	b.mu.Lock()
	for i := range b.queues["log"].log.records {
		b.queues["log"].log.records[i].at = time.Now().Add(-time.Hour)
	}
	b.mu.Unlock()
	if got := read(t, c, "log", "first", 1); !slices.Equal(got, []string{"2:r2"}) {
		t.Errorf("read %v, want only the newest record left past x-max-age", got)
	}
}

func TestMemoryStreamACursorBehindRetentionMovesToTheOldestRecord(t *testing.T) {
	c := connect(t)
	streamOf(t, c, "log", map[string]any{"x-max-length": 2}, 5)
	if got := read(t, c, "log", int64(1), 2); !slices.Equal(got, []string{"3:r3", "4:r4"}) {
		t.Errorf("from offset 1 read %v, want the oldest records held, 3 and 4", got)
	}
}

func TestMemoryStreamRefusesWhatRabbitMQRefuses(t *testing.T) {
	c := connect(t)
	streamOf(t, c, "log", nil, 1)
	if err := c.DeclareQueue("bad", QueueSpec{Durable: true, Args: map[string]any{ArgQueueType: QueueStream, "x-max-age": "7W"}}); err == nil || !strings.Contains(err.Error(), "x-max-age") {
		t.Errorf("x-max-age 7W: %v, want it refused", err)
	}
	if _, err := c.Consume("log", ConsumeSpec{}, func(Delivery) {}); err == nil || !strings.Contains(err.Error(), "prefetch count is not set") {
		t.Errorf("consume without a prefetch: %v, want RabbitMQ's refusal", err)
	}
	if _, err := c.Consume("log", ConsumeSpec{Prefetch: 1, Args: map[string]any{ArgStreamOffset: "bogus"}}, func(Delivery) {}); err == nil {
		t.Error("x-stream-offset bogus was accepted")
	}
	if _, _, err := c.Pull("log"); err == nil || !strings.Contains(err.Error(), "540 NOT_IMPLEMENTED - basic.get") {
		t.Errorf("basic.get on a stream: %v, want 540 NOT_IMPLEMENTED", err)
	}
	nacked := make(chan error, 1)
	sub, err := c.Consume("log", ConsumeSpec{Prefetch: 1, Args: map[string]any{ArgStreamOffset: "first"}}, func(d Delivery) {
		nacked <- d.Acker.Nack(true)
	})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	if err := <-nacked; err == nil || !strings.Contains(err.Error(), "540 NOT_IMPLEMENTED - basic.nack") {
		t.Errorf("nack on a stream: %v, want 540 NOT_IMPLEMENTED", err)
	}
}

func TestMemoryParseMaxAgeReadsTheFamilyUnits(t *testing.T) {
	for s, want := range map[string]time.Duration{"7D": 7 * 24 * time.Hour, "3h": 3 * time.Hour, "90m": 90 * time.Minute, "45s": 45 * time.Second, "1Y": 365 * 24 * time.Hour} {
		if got, ok := parseMaxAge(s); !ok || got != want {
			t.Errorf("parseMaxAge(%q) = %v, %v; want %v", s, got, ok, want)
		}
	}
	for _, s := range []string{"", "s", "0s", "-1h", "1w", "h1"} {
		if _, ok := parseMaxAge(s); ok {
			t.Errorf("parseMaxAge(%q) accepted", s)
		}
	}
}
