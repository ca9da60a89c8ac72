package acemq

import (
	"log/slog"
	"sync/atomic"

	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
)

// guardedObserver calls an Observer so that a panic in it costs one sample,
// not the process: the publish or delivery that was being counted goes on,
// and the observer's first panic is logged. Safe for concurrent use
// when the Observer it wraps is.
type guardedObserver struct {
	o      Observer
	log    *slog.Logger
	logged atomic.Bool
}

// guardObserver wraps o, unless it is the NopObserver, which cannot panic.
func guardObserver(o Observer, log *slog.Logger) Observer {
	if _, nop := o.(NopObserver); nop {
		return o
	}
	return &guardedObserver{o: o, log: log}
}

// Count passes the sample on, recovering a panic.
func (g *guardedObserver) Count(metric string, delta int64, labels semconv.Labels) {
	g.call(metric, func() { g.o.Count(metric, delta, labels) })
}

// Observe passes the sample on, recovering a panic.
func (g *guardedObserver) Observe(metric string, seconds float64, labels semconv.Labels) {
	g.call(metric, func() { g.o.Observe(metric, seconds, labels) })
}

// Gauge passes the sample on, recovering a panic.
func (g *guardedObserver) Gauge(metric string, value float64, labels semconv.Labels) {
	g.call(metric, func() { g.o.Gauge(metric, value, labels) })
}

// call runs f and logs its panic, once per observer, as an error naming the
// metric whose sample was lost.
func (g *guardedObserver) call(metric string, f func()) {
	err := guard("the observer", func() error { f(); return nil })
	if err != nil && g.logged.CompareAndSwap(false, true) {
		g.log.Error("acemq: a metric sample was lost (later panics of this observer are not logged)",
			"metric", metric, "error", err)
	}
}
