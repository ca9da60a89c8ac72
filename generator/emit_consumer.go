package generator

import (
	"fmt"
	"time"

	"github.com/dave/jennifer/jen"
)

// consumers writes, per message, Consume<Name> and its unexported helpers.
func (e *emitter) consumers() {
	for _, m := range e.dom.Messages {
		if m.Kind == Event {
			e.consumeEvent(m)
		} else {
			e.consumeCommand(m)
		}
		e.retryPolicy(m)
		e.consumeOptions(m)
	}
}

func consumeParams(m *Message, service bool) []jen.Code {
	ps := []jen.Code{jen.Id("ctx").Qual(contextPath, "Context"), jen.Id("conn").Op("*").Add(qual("Conn"))}
	if service {
		ps = append(ps, jen.Id("service").String())
	}
	return append(ps, jen.Id("h").Add(qual("Handler")).Types(jen.Id(m.Name)), jen.Id("opts").Op("...").Add(qual("ConsumeOption")))
}

func consumeResults() jen.Code {
	return jen.Parens(jen.List(jen.Op("*").Add(qual("Consumer")), jen.Error()))
}

func (e *emitter) consumeEvent(m *Message) {
	e.comment(fmt.Sprintf("Consume%s declares what service needs to consume %s events (the queue\n"+
		"<service>.%s bound to Exchange, its dead-letter and retry queues) and\n"+
		"delivers each to h. An empty service is refused. The contract's codec, retry\n"+
		"policy and required headers apply; opts come after them, so they win.", m.Name, m.Name, m.RoutingKey), "", m.Deprecated)
	e.f.Func().Id(consumeName(m)).Params(consumeParams(m, true)...).Add(consumeResults()).Block(
		jen.List(jen.Id("queue"), jen.Err()).Op(":=").Add(qual("SubscriberQueue")).Call(jen.Id("service"), jen.Id(routingKeyName(m))),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.Return(qual("DeclareAndConsume").Call(jen.Id("ctx"), jen.Id("conn"),
			jen.Id(topologyName(m.Name)).Call(jen.Id("newTopology").Call(), jen.Id("queue")), jen.Id("queue"), jen.Id("h"),
			jen.Id(consumeOptionsName(m)).Call(jen.Id("conn"), jen.Id("opts")).Op("..."))))
	e.f.Commentf("%sQueue returns the queue on which service consumes %s events,", m.Name, m.Name)
	e.f.Commentf("<service>.%s, as Consume%s names it (acemq.SubscriberQueue): an", m.RoutingKey, m.Name)
	e.f.Comment("empty service, or one a queue name cannot hold, is the same error.")
	e.f.Func().Id(queueName(m.Name)).Params(jen.Id("service").String()).Parens(jen.List(jen.String(), jen.Error())).Block(
		jen.Return(qual("SubscriberQueue").Call(jen.Id("service"), jen.Id(routingKeyName(m)))))
	e.f.Commentf("%s adds a consumer queue of %s events to t.", topologyName(m.Name), m.Name)
	e.f.Func().Id(topologyName(m.Name)).Params(jen.Id("t").Op("*").Add(qual("Topology")), jen.Id("queue").String()).
		Op("*").Add(qual("Topology")).Block(jen.Return(queueTopology(m, jen.Id("queue"))))
}

func (e *emitter) consumeCommand(m *Message) {
	e.comment(fmt.Sprintf("Consume%s declares %sQueue (bound to Exchange, with its dead-letter and\n"+
		"retry queues) and delivers each %s command to h. The contract's codec, retry\n"+
		"policy and required headers apply; opts come after them, so they win.", m.Name, m.Name, m.Name), "", m.Deprecated)
	e.f.Func().Id(consumeName(m)).Params(consumeParams(m, false)...).Add(consumeResults()).Block(
		jen.Return(qual("DeclareAndConsume").Call(jen.Id("ctx"), jen.Id("conn"),
			jen.Id(topologyName(m.Name)).Call(jen.Id("newTopology").Call()), jen.Id(queueName(m.Name)), jen.Id("h"),
			jen.Id(consumeOptionsName(m)).Call(jen.Id("conn"), jen.Id("opts")).Op("..."))))
	e.f.Commentf("%s adds the queue of command %s to t.", topologyName(m.Name), m.Name)
	e.f.Func().Id(topologyName(m.Name)).Params(jen.Id("t").Op("*").Add(qual("Topology"))).
		Op("*").Add(qual("Topology")).Block(jen.Return(queueTopology(m, jen.Id(queueName(m.Name)))))
}

// queueTopology is t with queue declared, dead-lettered, given retry queues
// and bound to the message's routing key.
func queueTopology(m *Message, queue *jen.Statement) jen.Code {
	return jen.Id("t").Dot("Queue").Call(queue.Clone()).Op(".").Line().
		Id("DeadLetters").Call(queue.Clone()).Op(".").Line().
		Id("Retries").Call(queue.Clone(), jen.Id(retryName(m)).Call()).Op(".").Line().
		Id("Binding").Call(queue.Clone(), jen.Id("Exchange"), jen.Id(routingKeyName(m)))
}

func (e *emitter) retryPolicy(m *Message) {
	name := retryName(m)
	e.f.Commentf("%s is the contract's retry policy for %s: %s.", name, m.Name, describeRetry(m.Retry))
	e.f.Func().Id(name).Params().Add(qual("RetryPolicy")).Block(jen.Return(retryCode(m.Retry)))
}

func retryCode(r Retry) jen.Code {
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

func describeRetry(r Retry) string {
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

func (e *emitter) consumeOptions(m *Message) {
	name := consumeOptionsName(m)
	opts := []jen.Code{consumeCodecOption(m),
		qual("RetryWith").Call(jen.Id(retryName(m)).Call())}
	if len(ruledHeaders(m)) > 0 {
		opts = append(opts, qual("ConsumeHeaderRules").Call(headerRulesArgs(m)))
	}
	e.f.Commentf("%s puts the contract's consume options before opts.", name)
	e.f.Func().Id(name).Params(jen.Id("conn").Op("*").Add(qual("Conn")), jen.Id("opts").Index().Add(qual("ConsumeOption"))).Index().Add(qual("ConsumeOption")).Block(
		jen.Return(jen.Append(jen.Index().Add(qual("ConsumeOption")).ValuesFunc(func(g *jen.Group) {
			for _, o := range opts {
				g.Line().Add(o)
			}
			g.Line()
		}), jen.Id("opts").Op("..."))))
}
