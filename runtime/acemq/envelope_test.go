package acemq

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
)

func TestNewEnvelopeHasTheFamilyDefaults(t *testing.T) {
	before := time.Now().Add(-time.Millisecond)
	env, err := NewEnvelope("order.placed")
	if err != nil {
		t.Fatal(err)
	}
	if !uuidV4.MatchString(env.ID) || env.CorrelationID != env.ID {
		t.Errorf("ID %q correlation %q: want a UUIDv4 correlated with itself", env.ID, env.CorrelationID)
	}
	if env.Type != "order.placed" || env.Version != 1 || env.Attempt != 1 || env.Origin != defaultOrigin() {
		t.Errorf("type %q version %d attempt %d origin %q", env.Type, env.Version, env.Attempt, env.Origin)
	}
	if env.FirstSeen.Location() != time.UTC || env.FirstSeen.Before(before) || env.FirstSeen.Nanosecond()%int(time.Millisecond) != 0 {
		t.Errorf("FirstSeen %v: want now, in UTC, at millisecond precision", env.FirstSeen)
	}
	if env.Headers == nil || len(env.Headers) != 0 {
		t.Errorf("Headers = %#v, want an empty non-nil map", env.Headers)
	}
}

func TestDefaultOriginIsAcemqAtHostname(t *testing.T) {
	if o := defaultOrigin(); o != "unknown" && !strings.HasPrefix(o, "acemq@") {
		t.Errorf("defaultOrigin() = %q", o)
	}
}

func TestNewEnvelopeCorrelatesWithAGivenMessageID(t *testing.T) {
	env, err := NewEnvelope("t", MessageID("m-1"))
	if err != nil || env.ID != "m-1" || env.CorrelationID != "m-1" {
		t.Fatalf("env %+v err %v: want ID and CorrelationID m-1", env, err)
	}
	env, _ = NewEnvelope("t", MessageID("m-1"), CorrelationID("c-9"))
	if env.CorrelationID != "c-9" {
		t.Errorf("CorrelationID = %q, want the explicit c-9", env.CorrelationID)
	}
}

func TestEnvelopeOptionsSetTheirFields(t *testing.T) {
	seen := time.Date(2026, 1, 2, 3, 4, 5, 678_901_234, time.FixedZone("x", 3600))
	env, err := NewEnvelope("t", MessageType("order.paid"), SchemaVersion(3), CausationID("cause"),
		Attempt(4), FirstSeen(seen), Origin("svc@h"), DeadLetterReason("bad"), Claim("k"),
		ReplyTo("replies"), Route([]string{"a", "b"}, 1, "run-7"), Header("x-tenant", "acme"))
	if err != nil {
		t.Fatal(err)
	}
	want := Envelope{ID: env.ID, Type: "order.paid", Version: 3, CorrelationID: env.ID, CausationID: "cause",
		Attempt: 4, FirstSeen: time.Date(2026, 1, 2, 2, 4, 5, 678_000_000, time.UTC), Origin: "svc@h",
		Error: "bad", Claim: "k", ReplyTo: "replies", Route: "a,b", RoutePosition: 1, RouteID: "run-7",
		Headers: map[string]any{"x-tenant": "acme"}}
	if !reflect.DeepEqual(env, want) {
		t.Errorf("got  %+v\nwant %+v", env, want)
	}
}

func TestHeaderRefusesTheReservedNamespaceWithTheFamilyMessage(t *testing.T) {
	//acemqvet:ignore reservedheader the test proves Header refuses it
	_, err := NewEnvelope("t", Header("x-acemq-id", "mine"))
	want := `acemq: header "x-acemq-id" is in the reserved "x-acemq-" namespace and would be dropped on consume; use a namespace of your own, such as x-yourcompany-`
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v\nwant %s", err, want)
	}
	if ReservedHeaderError("x-acemq-id").Error() != want {
		t.Errorf("ReservedHeaderError disagrees with Header")
	}
	//acemqvet:ignore reservedheader the test proves Header refuses it
	if _, err := NewEnvelope("t", Header("X-AceMQ-Tenant", 1)); err == nil {
		t.Errorf("a reserved name in other letter case was accepted")
	}
}

func TestEnvelopeOptionsRefuseUnusableValues(t *testing.T) {
	for name, opt := range map[string]EnvelopeOption{
		"empty id": MessageID(""), "empty type": MessageType(""), "version 0": SchemaVersion(0),
		"attempt 0": Attempt(0), "zero first seen": FirstSeen(time.Time{}), "empty header": Header("", 1),
		"no steps": Route(nil, 0, "r"), "blank step": Route([]string{"a", " "}, 0, "r"),
		"comma step": Route([]string{"a,b"}, 0, "r"), "negative position": Route([]string{"a"}, -1, "r"),
	} {
		if _, err := NewEnvelope("t", opt); err == nil || !strings.HasPrefix(err.Error(), "acemq: ") {
			t.Errorf("%s: err = %v, want an acemq: error", name, err)
		}
	}
}

func TestNextAttemptAdvancesACopyWithHeadersOfItsOwn(t *testing.T) {
	env, _ := NewEnvelope("t", Header("x-a", 1))
	next := env.NextAttempt()
	next.Headers["x-a"] = 2
	if next.Attempt != 2 || next.ID != env.ID || env.Attempt != 1 || env.Headers["x-a"] != 1 {
		t.Errorf("next %+v, original %+v: want attempt 2 on a copy, original untouched", next, env)
	}
	if (Envelope{}).NextAttempt().Headers == nil {
		t.Errorf("NextAttempt of an envelope without headers gave nil Headers")
	}
}

func TestAgeIsNegativeWhenFirstSeenIsUnknown(t *testing.T) {
	if age := (Envelope{}).Age(); age >= 0 {
		t.Errorf("Age() = %s, want negative (unknown)", age)
	}
	env, _ := NewEnvelope("t", FirstSeen(time.Now().Add(-time.Hour)))
	if age := env.Age(); age < time.Hour || age > 2*time.Hour {
		t.Errorf("Age() = %s, want about an hour", age)
	}
}

func TestRouteStepsSplitsTheJavaRouteHeader(t *testing.T) {
	env := EnvelopeFromWire(map[string]any{semconv.HeaderRoute: "validate,charge,ship", semconv.HeaderRoutePosition: int32(1), semconv.HeaderRouteID: "run-7"}, "k", "")
	if got := env.routeSteps(); !slices.Equal(got, []string{"validate", "charge", "ship"}) || env.RoutePosition != 1 || env.RouteID != "run-7" {
		t.Errorf("steps %v position %d id %q", got, env.RoutePosition, env.RouteID)
	}
	if (Envelope{}).routeSteps() != nil {
		t.Errorf("an envelope without a route has steps")
	}
}

func TestApplyStopsAtTheFirstFailingOption(t *testing.T) {
	var env Envelope
	boom := errors.New("boom")
	err := env.Apply(Origin("a"), func(*Envelope) error { return boom }, Origin("b"))
	if !errors.Is(err, boom) || env.Origin != "a" || env.Headers == nil {
		t.Errorf("err %v origin %q headers %v", err, env.Origin, env.Headers)
	}
}
