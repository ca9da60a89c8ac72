package generator

import (
	"fmt"
	"time"

	"github.com/dave/jennifer/jen"
)

// consumers writes, per message, Consume<Name> (and <Event>Queue).
func (e *emitter) consumers() {
	for _, m := range e.dom.Messages {
		if m.Kind == eventKind {
			e.consumeEvent(m)
		} else {
			e.consumeCommand(m)
		}
	}
}

func consumeParams(m *message, service bool) []jen.Code {
	ps := []jen.Code{jen.Id("ctx").Qual(contextPath, "Context"), jen.Id("conn").Op("*").Add(qual("Conn"))}
	if service {
		ps = append(ps, jen.Id("service").String())
	}
	return append(ps, jen.Id("h").Add(qual("Handler")).Types(jen.Id(m.Name)), jen.Id("opts").Op("...").Add(qual("ConsumeOption")))
}

func consumeResults() jen.Code {
	return jen.Parens(jen.List(jen.Op("*").Add(qual("Consumer")), jen.Error()))
}

func (e *emitter) consumeEvent(m *message) {
	e.comment(fmt.Sprintf("Consume%s declares what service needs to consume %s events (the queue "+
		"<service>.%s bound to Exchange, its dead-letter and retry queues) and "+
		"delivers each to h. An empty service is refused. The contract's codec, retry "+
		"policy and required headers apply; opts come after them, so they win.", m.Name, m.Name, m.RoutingKey), "", m.Deprecated)
	e.f.Func().Id(consumeName(m)).Params(consumeParams(m, true)...).Add(consumeResults()).Block(
		jen.Return(jen.Id(specVar(m.Name)).Dot("Subscribe").Call(jen.Id("ctx"), jen.Id("conn"), jen.Id("service"),
			jen.Id("h"), jen.Id("opts").Op("..."))))
	e.comment(fmt.Sprintf("%sQueue returns the queue on which service consumes %s events, "+
		"<service>.%s, as Consume%s names it (acemqimpl.SubscriberQueue): an "+
		"empty service, or one a queue name cannot hold, is the same error.", m.Name, m.Name, m.RoutingKey, m.Name), "", "")
	e.f.Func().Id(queueName(m.Name)).Params(jen.Id("service").String()).Parens(jen.List(jen.String(), jen.Error())).Block(
		jen.Return(jen.Id(specVar(m.Name)).Dot("QueueOf").Call(jen.Id("service"))))
}

func (e *emitter) consumeCommand(m *message) {
	e.comment(fmt.Sprintf("Consume%s declares %sQueue (bound to Exchange, with its dead-letter and "+
		"retry queues) and delivers each %s command to h. The contract's codec, retry "+
		"policy and required headers apply; opts come after them, so they win.", m.Name, m.Name, m.Name), "", m.Deprecated)
	e.f.Func().Id(consumeName(m)).Params(consumeParams(m, false)...).Add(consumeResults()).Block(
		jen.Return(jen.Id(specVar(m.Name)).Dot("Consume").Call(jen.Id("ctx"), jen.Id("conn"), jen.Id("h"), jen.Id("opts").Op("..."))))
}

func retryCode(r retry) jen.Code {
	var c *jen.Statement
	if r.Backoff == "fixed" {
		c = qual("FixedRetry").Call(jen.Lit(r.Attempts), durationCode(r.Initial))
	} else {
		c = qual("ExponentialRetry").Call(jen.Lit(r.Attempts), durationCode(r.Initial), durationCode(r.Max))
	}
	if r.MaxAge > 0 {
		c = c.Dot("GiveUpAfter").Call(durationCode(r.MaxAge))
	}
	return c
}

func describeRetry(r retry) string {
	s := fmt.Sprintf("%d attempts, fixed %s apart", r.Attempts, shortDuration(r.Initial))
	if r.Backoff != "fixed" {
		s = fmt.Sprintf("%d attempts, exponential from %s to %s", r.Attempts, shortDuration(r.Initial), shortDuration(r.Max))
	}
	if r.MaxAge > 0 {
		s += fmt.Sprintf(", giving up after %s", shortDuration(r.MaxAge))
	}
	return s
}

var unitSymbols = map[string]string{"Hour": "h", "Minute": "m", "Second": "s",
	"Millisecond": "ms", "Microsecond": "µs", "Nanosecond": "ns"}

// shortDuration spells d in its largest exact unit: 1m, 90s, 50ms.
func shortDuration(d time.Duration) string {
	for _, u := range durationUnits {
		if d%u.d == 0 {
			return fmt.Sprintf("%d%s", d/u.d, unitSymbols[u.name])
		}
	}
	return d.String()
}

var durationUnits = []struct {
	d    time.Duration
	name string
}{{time.Hour, "Hour"}, {time.Minute, "Minute"}, {time.Second, "Second"},
	{time.Millisecond, "Millisecond"}, {time.Microsecond, "Microsecond"}, {time.Nanosecond, "Nanosecond"}}

// durationCode spells d in its largest exact unit: time.Second, 30 * time.Second.
func durationCode(d time.Duration) jen.Code {
	for _, u := range durationUnits {
		if d%u.d != 0 {
			continue
		}
		if d == u.d {
			return jen.Qual(timePath, u.name)
		}
		return jen.Lit(int(d/u.d)).Op("*").Qual(timePath, u.name)
	}
	return jen.Lit(int(d))
}
