package acemq

import (
	"testing"
	"time"
)

func BenchmarkNewEnvelope(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_, _ = NewEnvelope("order.placed", Header("x-tenant", "acme"))
	}
}

func BenchmarkToWire(b *testing.B) {
	env, _ := NewEnvelope("order.placed", Header("x-tenant", "acme"), CausationID("c"))
	b.ReportAllocs()
	for b.Loop() {
		_ = env.ToWire()
	}
}

func BenchmarkEnvelopeFromWire(b *testing.B) {
	env, _ := NewEnvelope("order.placed", Header("x-tenant", "acme"), CausationID("c"))
	h := env.ToWire()
	b.ReportAllocs()
	for b.Loop() {
		_ = EnvelopeFromWire(h, "order.placed", env.ID)
	}
}

func BenchmarkJitter(b *testing.B) {
	p := DefaultRetryPolicy()
	for b.Loop() {
		_ = p.Jitter(time.Second)
	}
}
