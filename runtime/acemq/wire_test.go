package acemq

import (
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
)

func TestEnvelopeFromWireCoercesEveryIntegerEncoding(t *testing.T) {
	for _, v := range []any{int(3), int8(3), int16(3), int32(3), int64(3), uint(3), uint8(3), uint16(3),
		uint32(3), uint64(3), float32(3), float64(3), "3", []byte("3"), " 3 "} {
		env := EnvelopeFromWire(map[string]any{semconv.HeaderAttempt: v, semconv.HeaderVersion: v}, "k", "m")
		if env.Attempt != 3 || env.Version != 3 {
			t.Errorf("%T(%v): attempt %d version %d, want 3", v, v, env.Attempt, env.Version)
		}
	}
}

func TestEnvelopeFromWireFallsBackToDefaultsForUnreadableNumbers(t *testing.T) {
	for _, v := range []any{"three", 2.5, true, nil, uint64(1 << 63), int64(-4), float64(1e300)} {
		env := EnvelopeFromWire(map[string]any{semconv.HeaderAttempt: v, semconv.HeaderVersion: v, semconv.HeaderRoutePosition: v}, "k", "m")
		if env.Attempt != 1 || env.Version != 1 || env.RoutePosition != 0 {
			t.Errorf("%T(%v): attempt %d version %d position %d, want 1, 1, 0", v, v, env.Attempt, env.Version, env.RoutePosition)
		}
	}
}

func TestEnvelopeFromWireReadsStringsSentAsBytes(t *testing.T) {
	env := EnvelopeFromWire(map[string]any{semconv.HeaderID: []byte("id-1"), semconv.HeaderType: []byte("t"),
		semconv.HeaderCorrelation: []byte("c"), semconv.HeaderOrigin: []byte("o"), semconv.HeaderError: []byte("e")}, "k", "m")
	if env.ID != "id-1" || env.Type != "t" || env.CorrelationID != "c" || env.Origin != "o" || env.Error != "e" {
		t.Errorf("%+v", env)
	}
}

func TestEnvelopeFromWireFallsBackForIDTypeAndCorrelation(t *testing.T) {
	env := EnvelopeFromWire(nil, "order.placed", "prop-id")
	if env.ID != "prop-id" || env.Type != "order.placed" || env.CorrelationID != "prop-id" {
		t.Errorf("id %q type %q correlation %q: want the message-id and routing key", env.ID, env.Type, env.CorrelationID)
	}
	fresh := EnvelopeFromWire(map[string]any{}, "k", "")
	if !uuidV4.MatchString(fresh.ID) || fresh.CorrelationID != fresh.ID {
		t.Errorf("with no id anywhere, got %q (correlation %q), want a fresh UUIDv4", fresh.ID, fresh.CorrelationID)
	}
	if fresh.Headers == nil || fresh.FirstSeen.IsZero() || fresh.Attempt != 1 || fresh.Version != 1 {
		t.Errorf("defaults missing: %+v", fresh)
	}
}

func TestEnvelopeFromWireReadsFirstSeenMillisAndTimestamps(t *testing.T) {
	want := time.UnixMilli(1788968630038).UTC()
	for _, v := range []any{int64(1788968630038), float64(1788968630038), "1788968630038", want.In(time.Local)} {
		if got := EnvelopeFromWire(map[string]any{semconv.HeaderFirstSeen: v}, "k", "m").FirstSeen; !got.Equal(want) || got.Location() != time.UTC {
			t.Errorf("%T: FirstSeen = %v, want %v", v, got, want)
		}
	}
}

func TestEnvelopeFromWireStripsEveryReservedHeaderKnownOrNot(t *testing.T) {
	in := map[string]any{semconv.HeaderID: "i", "x-acemq-future": 1, "X-ACEMQ-Shout": 2, "x-tenant": "acme", "traceparent": "00-x"}
	env := EnvelopeFromWire(in, "k", "m")
	if got := slices.Sorted(maps.Keys(env.Headers)); !slices.Equal(got, []string{"traceparent", "x-tenant"}) {
		t.Errorf("application headers = %v", got)
	}
	if len(in) != 5 {
		t.Errorf("EnvelopeFromWire modified its input")
	}
}

func TestToWireWritesIntegersAsInt64AndFirstSeenAsEpochMillis(t *testing.T) {
	env, _ := NewEnvelope("t", FirstSeen(time.UnixMilli(1767323045678)), Route([]string{"a"}, 2, ""))
	h := env.ToWire()
	for _, name := range []string{semconv.HeaderVersion, semconv.HeaderAttempt, semconv.HeaderFirstSeen, semconv.HeaderRoutePosition} {
		if _, ok := h[name].(int64); !ok {
			t.Errorf("%s = %T, want int64", name, h[name])
		}
	}
	if h[semconv.HeaderFirstSeen] != int64(1767323045678) || h[semconv.HeaderRoutePosition] != int64(2) {
		t.Errorf("first-seen %v position %v", h[semconv.HeaderFirstSeen], h[semconv.HeaderRoutePosition])
	}
}

func TestToWireOmitsEmptyOptionalHeaders(t *testing.T) {
	env, _ := NewEnvelope("t", Origin(""))
	h := env.ToWire()
	for _, name := range []string{semconv.HeaderCausation, semconv.HeaderOrigin, semconv.HeaderError, semconv.HeaderClaim, semconv.HeaderRoute, semconv.HeaderRoutePosition, semconv.HeaderRouteID} {
		if _, ok := h[name]; ok {
			t.Errorf("%s written for an empty field", name)
		}
	}
	want := []string{semconv.HeaderAttempt, semconv.HeaderCorrelation, semconv.HeaderFirstSeen, semconv.HeaderID, semconv.HeaderType, semconv.HeaderVersion}
	if got := slices.Sorted(maps.Keys(h)); !slices.Equal(got, want) {
		t.Errorf("headers %v, want %v", got, want)
	}
}

func TestToWireSkipsReservedApplicationHeaders(t *testing.T) {
	env, _ := NewEnvelope("t", MessageID("real"))
	//acemqvet:ignore reservedheader the test proves ToWire skips it
	env.Headers["x-acemq-id"] = "forged"
	env.Headers["x-tenant"] = "acme"
	h := env.ToWire()
	if h[semconv.HeaderID] != "real" || h["x-tenant"] != "acme" {
		t.Errorf("id %v tenant %v", h[semconv.HeaderID], h["x-tenant"])
	}
}

func TestWireRoundTripKeepsEveryField(t *testing.T) {
	env, _ := NewEnvelope("t", CausationID("c"), DeadLetterReason("why"), Claim("k"),
		Route([]string{"a", "b"}, 1, "run"), Attempt(3), SchemaVersion(2), Header("x-n", int64(5)))
	back := EnvelopeFromWire(env.ToWire(), "other", "other")
	env.ReplyTo = ""
	if !envelopesMatch(env, back) {
		t.Errorf("round trip\n got %+v\nwant %+v", back, env)
	}
}

func envelopesMatch(a, b Envelope) bool {
	return a.ID == b.ID && a.Type == b.Type && a.Version == b.Version && a.CorrelationID == b.CorrelationID &&
		a.CausationID == b.CausationID && a.Attempt == b.Attempt && a.FirstSeen.Equal(b.FirstSeen) &&
		a.Origin == b.Origin && a.Error == b.Error && a.Claim == b.Claim && a.Route == b.Route &&
		a.RoutePosition == b.RoutePosition && a.RouteID == b.RouteID && maps.Equal(a.Headers, b.Headers)
}

func TestEnvelopeFromWireIgnoresRoutePositionAndIDWithoutARoute(t *testing.T) {
	env := EnvelopeFromWire(map[string]any{semconv.HeaderRoutePosition: int64(4), semconv.HeaderRouteID: "run"}, "k", "m")
	if env.RoutePosition != 0 || env.RouteID != "" {
		t.Errorf("position %d id %q without a route", env.RoutePosition, env.RouteID)
	}
}

func TestEnvelopeFromWireReadsOnlyExactReservedNamesAndDropsEveryCase(t *testing.T) {
	headers := map[string]any{"X-ACEMQ-ID": "upper", "X-Acemq-Attempt": int64(7), "x-acemq-type": "t", "x-app": int32(1)}
	env := EnvelopeFromWire(headers, "key", "m-1")
	if env.ID != "m-1" || env.Attempt != 1 || env.Type != "t" {
		t.Errorf("a reserved name in another case was read: %+v", env)
	}
	if len(env.Headers) != 1 || env.Headers["x-app"] != int32(1) {
		t.Errorf("application headers %v, want only x-app", env.Headers)
	}
	if len(headers) != 4 {
		t.Errorf("the headers given were modified: %v", headers)
	}
}

func TestEnvelopeFromWireWithoutApplicationHeadersHasAnEmptyMap(t *testing.T) {
	env := EnvelopeFromWire(map[string]any{semconv.HeaderID: "x"}, "key", "")
	if env.Headers == nil || len(env.Headers) != 0 {
		t.Fatalf("headers %#v, want an empty map", env.Headers)
	}
}
