package acemq

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

type envelopeFixtures struct {
	GeneratedBy string `json:"generatedBy"`
	Cases       []struct {
		Case        string         `json:"case"`
		RoutingKey  string         `json:"routingKey"`
		MessageID   string         `json:"messageId"`
		ContentType string         `json:"contentType"`
		Headers     map[string]any `json:"headers"`
	} `json:"cases"`
}

func loadEnvelopeFixtures(t *testing.T) envelopeFixtures {
	t.Helper()
	raw, err := os.ReadFile("../../testdata/vectors/envelope-fixtures.json")
	if err != nil {
		t.Fatalf("the envelope fixtures must be present: %v", err)
	}
	var fx envelopeFixtures
	if err := json.Unmarshal(raw, &fx); err != nil {
		t.Fatalf("envelope fixtures: %v", err)
	}
	if fx.GeneratedBy != "acemq-java-amqp FixtureGen" || len(fx.Cases) != 3 {
		t.Fatalf("unexpected fixture file: generatedBy %q, %d cases", fx.GeneratedBy, len(fx.Cases))
	}
	return fx
}

// normalise turns every number into an int64 (JSON gives float64, ToWire
// int64) so the two header tables compare by value.
func normalise(h map[string]any) map[string]any {
	out := make(map[string]any, len(h))
	for k, v := range h {
		if n := wireInt(v); n != 0 {
			out[k] = n
			continue
		}
		out[k] = fmt.Sprint(v)
	}
	return out
}

func TestJavaEnvelopeFixturesRoundTripWithNoHeaderLostOrInvented(t *testing.T) {
	for _, c := range loadEnvelopeFixtures(t).Cases {
		t.Run(c.Case, func(t *testing.T) {
			env := EnvelopeFromWire(c.Headers, c.RoutingKey, c.MessageID)
			got, want := normalise(env.ToWire()), normalise(c.Headers)
			if !maps.Equal(got, want) {
				t.Errorf("round trip changed the headers\n got: %v\nwant: %v", got, want)
			}
			for k := range env.Headers {
				if strings.HasPrefix(k, ReservedHeaderPrefix) {
					t.Errorf("reserved header %q reached the application headers", k)
				}
			}
		})
	}
}

func TestJavaEnvelopeFixturesDecodeIntoTheirFields(t *testing.T) {
	fx := loadEnvelopeFixtures(t)
	populated := EnvelopeFromWire(fx.Cases[1].Headers, fx.Cases[1].RoutingKey, fx.Cases[1].MessageID)
	want := Envelope{
		ID: "11111111-2222-3333-4444-555555555555", Type: "order.placed", Version: 3,
		CorrelationID: "corr-1", CausationID: "cause-1", Attempt: 1,
		FirstSeen: time.UnixMilli(1767323045678).UTC(), Origin: "orders@host-7",
		Headers: map[string]any{"x-tenant": "acme"},
	}
	if fmt.Sprint(populated) != fmt.Sprint(want) {
		t.Errorf("populated case decoded as\n%+v\nwant\n%+v", populated, want)
	}
}

func TestJavaReplayedFixtureKeepsTheUnprefixedReplayHeadersAsApplicationHeaders(t *testing.T) {
	c := loadEnvelopeFixtures(t).Cases[2]
	env := EnvelopeFromWire(c.Headers, c.RoutingKey, c.MessageID)
	got := slices.Sorted(maps.Keys(env.Headers))
	want := []string{"acemq-replay-count", "acemq-replayed-at", "acemq-replayed-from"}
	if !slices.Equal(got, want) {
		t.Errorf("application headers = %v, want %v", got, want)
	}
}

func TestJavaMinimalFixtureMatchesTheFamilyDefaults(t *testing.T) {
	c := loadEnvelopeFixtures(t).Cases[0]
	env := EnvelopeFromWire(c.Headers, c.RoutingKey, c.MessageID)
	if env.Type != c.RoutingKey || env.CorrelationID != env.ID || env.ID != c.MessageID {
		t.Errorf("type %q correlation %q id %q: want the routing key and the message id", env.Type, env.CorrelationID, env.ID)
	}
	if env.Version != 1 || env.Attempt != 1 || len(env.Headers) != 0 || env.Headers == nil {
		t.Errorf("version %d attempt %d headers %#v: want 1, 1 and an empty map", env.Version, env.Attempt, env.Headers)
	}
}
