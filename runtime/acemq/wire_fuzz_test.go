package acemq

import (
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
)

// FuzzEnvelopeFromWire feeds headers as a broker might deliver them, from a
// peer that cannot be trusted, and checks EnvelopeFromWire never panics,
// always yields a usable envelope, and that the envelope survives a second
// trip through the wire unchanged.
func FuzzEnvelopeFromWire(f *testing.F) {
	f.Add("f67aff08-6293-4ce2-af9e-1b8797fb8451", "fx.plain", []byte("3"), int64(1788968630038), "a,b", int64(1), "x-acemq-odd")
	f.Add("", "", []byte{0xff}, int64(-1), "", int64(-5), "x-tenant")
	f.Add("i", "t", []byte("0"), int64(0), "", int64(24), "0")
	f.Fuzz(func(t *testing.T, id, typ string, attempt []byte, firstSeen int64, route string, pos int64, extra string) {
		headers := map[string]any{
			semconv.HeaderID: id, semconv.HeaderType: []byte(typ), semconv.HeaderAttempt: attempt, semconv.HeaderVersion: string(attempt),
			semconv.HeaderFirstSeen: firstSeen, semconv.HeaderRoute: route, semconv.HeaderRoutePosition: pos, extra: "v",
		}
		env := EnvelopeFromWire(headers, "rk", "mid")
		checkUsableEnvelope(t, env)
		again := EnvelopeFromWire(env.ToWire(), "other", "other")
		if !envelopesMatch(env, again) {
			t.Fatalf("second trip changed the envelope\n%+v\n%+v", env, again)
		}
	})
}

func checkUsableEnvelope(t *testing.T, env Envelope) {
	t.Helper()
	if env.ID == "" || env.CorrelationID == "" || env.Type == "" || env.Attempt < 1 || env.Version < 1 ||
		env.RoutePosition < 0 || env.Headers == nil || env.FirstSeen.IsZero() {
		t.Fatalf("unusable envelope %+v", env)
	}
	for k := range env.Headers {
		if isReserved(k) {
			t.Fatalf("reserved header %q kept", k)
		}
	}
}
