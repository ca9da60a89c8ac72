package schedule

import (
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
)

func TestHopIsTheLargestRungThatDoesNotOvershoot(t *testing.T) {
	for _, c := range []struct {
		remaining time.Duration
		want      string
	}{
		{-time.Second, semconv.ScheduleDueQueue},
		{0, semconv.ScheduleDueQueue},
		{999 * time.Millisecond, semconv.ScheduleDueQueue},
		{time.Second, semconv.ScheduleRung1s},
		{9999 * time.Millisecond, semconv.ScheduleRung1s},
		{10 * time.Second, semconv.ScheduleRung10s},
		{59 * time.Second, semconv.ScheduleRung10s},
		{time.Minute, semconv.ScheduleRung1m},
		{10*time.Minute - time.Millisecond, semconv.ScheduleRung1m},
		{10 * time.Minute, semconv.ScheduleRung10m},
		{time.Hour - time.Millisecond, semconv.ScheduleRung10m},
		{time.Hour, semconv.ScheduleRung1h},
		{24 * time.Hour, semconv.ScheduleRung1h},
	} {
		if got := Hop(c.remaining); got != c.want {
			t.Errorf("Hop(%s) = %s, want %s", c.remaining, got, c.want)
		}
	}
}

func TestRungsAreTheFamilysNamesTTLsAndThreeArguments(t *testing.T) {
	want := map[string]int64{semconv.ScheduleRung1h: 3600000, semconv.ScheduleRung10m: 600000,
		semconv.ScheduleRung1m: 60000, semconv.ScheduleRung10s: 10000, semconv.ScheduleRung1s: 1000}
	for _, r := range Rungs {
		args := RungArgs(r)
		if len(args) != 3 || args["x-message-ttl"] != want[r.Queue] || args["x-dead-letter-exchange"] != "acemq.schedule" ||
			args["x-dead-letter-routing-key"] != "acemq.schedule.due" {
			t.Errorf("%s: %v", r.Queue, args)
		}
	}
	if len(Rungs) != len(want) {
		t.Errorf("%d rungs, want %d", len(Rungs), len(want))
	}
}

func TestTicketStampsAndReadsTheBookkeepingHeadersAndDeliveredStripsThem(t *testing.T) {
	due := time.UnixMilli(1_800_000_000_123)
	h := map[string]any{"keep": "me", "x-schedule-other": "x"}
	Ticket{ID: "id-1", Exchange: "ex", RoutingKey: "rk", DueAt: due, ContentType: "application/json"}.Stamp(h)
	h[semconv.HeaderScheduleExchange] = []byte("ex") // as a peer may send it
	h[semconv.HeaderScheduleDueAt] = int32(0)
	h[semconv.HeaderScheduleDueAt] = due.UnixMilli()
	got, ok := Read(h)
	if !ok || got != (Ticket{ID: "id-1", Exchange: "ex", RoutingKey: "rk", DueAt: due, ContentType: "application/json"}) {
		t.Errorf("Read = %+v, %v", got, ok)
	}
	out := Delivered(h, due)
	if len(out) != 2 || out["keep"] != "me" || out[semconv.HeaderDueAt] != "2027-01-15T08:00:00.123Z" {
		t.Errorf("Delivered = %v", out)
	}
	if _, ok := Read(map[string]any{semconv.HeaderScheduleExchange: ""}); ok {
		t.Error("a message without routing key and due time read as scheduled")
	}
}
