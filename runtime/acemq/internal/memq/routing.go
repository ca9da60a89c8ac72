package memq

import (
	"fmt"
	"maps"
	"strings"
	"time"

	"github.com/acemq/acemq-gen/runtime/internal/amqpvalue"
)

// received are the value rules of the headers a broker hands back.
var received = amqpvalue.Rules{AsReceived: true}

// routeMessage routes one message to every matching queue and reports
// whether it reached any, and the first queue that refused it for being
// full. Publishing to an undeclared exchange is NOT_FOUND.
func (b *Broker) routeMessage(exchange, key string, msg Message) (Published, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	queues, err := b.route(exchange, key)
	if err != nil {
		return Published{}, err
	}
	now := time.Now()
	res := Published{Routed: len(queues) > 0}
	for _, q := range queues {
		if !q.offer(newMemMessage(exchange, key, msg, now)) && res.RefusedBy == "" {
			res.RefusedBy, res.Overflow = q.name, q.limits.overflow
		}
	}
	return res, nil
}

// stored returns msg as the broker would store it (see amqpvalue.Rules with
// AsReceived), refusing headers AMQP cannot carry and an invalid expiration.
// Its headers may be msg's own map (amqpvalue.Rules.Converted): every queue
// the message reaches keeps a copy of its own (newMemMessage), so the broker
// keeps nothing of msg's map once Publish returns.
func (b *Broker) stored(msg Message) (Message, error) {
	headers, err := received.Converted(msg.Headers)
	if err == nil {
		err = checkExpiration(msg.Expiration)
	}
	if err != nil {
		return Message{}, b.errorf("message %s: %w", msg.MessageID, err)
	}
	msg.Headers = headers
	return msg, nil
}

// checkExpiration refuses a per-message TTL RabbitMQ would refuse: anything
// but a whole number of milliseconds from 0 to 2147483647.
func checkExpiration(e string) error {
	if !amqpvalue.ValidExpiration(e) {
		return fmt.Errorf("406 PRECONDITION_FAILED - invalid expiration %q: not a whole number of milliseconds (0 to %d)", e, amqpvalue.MaxExpiration)
	}
	return nil
}

// route returns the queues a message published to exchange with key reaches,
// each once. Call with b.mu held.
func (b *Broker) route(exchange, key string) ([]*memQueue, error) {
	if exchange == "" {
		if q, ok := b.queues[key]; ok {
			return []*memQueue{q}, nil
		}
		return nil, nil
	}
	x, ok := b.exchanges[exchange]
	if !ok {
		return nil, RefusedError{b.errorf("404 NOT_FOUND - no exchange %q", exchange)}
	}
	return b.boundOrAlternate(x, key), nil
}

// boundOrAlternate returns the queues bound to x that match key or, when
// none do, those its alternate-exchange (and that one's, and so on) routes
// to, as RabbitMQ does. Call with b.mu held.
func (b *Broker) boundOrAlternate(x *memExchange, key string) []*memQueue {
	seen := map[string]bool{}
	for x != nil && !seen[x.name] {
		seen[x.name] = true
		if queues := b.bound(x, key); len(queues) > 0 {
			return queues
		}
		x = b.exchanges[argString(x.spec.Args["alternate-exchange"])]
	}
	return nil
}

// bound returns the queues bound to x whose binding matches key, each once.
func (b *Broker) bound(x *memExchange, key string) []*memQueue {
	var out []*memQueue
	seen := map[string]bool{}
	for _, bd := range x.bindings {
		q, ok := b.queues[bd.queue]
		if ok && !seen[bd.queue] && bindingMatches(x.spec.Kind, bd.key, key) {
			seen[bd.queue] = true
			out = append(out, q)
		}
	}
	return out
}

// bindingMatches applies an exchange kind's rule to a binding key.
func bindingMatches(kind, bindingKey, routingKey string) bool {
	switch kind {
	case "direct":
		return bindingKey == routingKey
	case "topic":
		return topicMatches(bindingKey, routingKey)
	default: // fanout; headers bindings carry no arguments here, so match all
		return true
	}
}

// topicMatches matches a routing key against a topic pattern word by word:
// "*" is exactly one word, "#" is zero or more words.
func topicMatches(pattern, key string) bool {
	return matchWords(words(pattern), words(key))
}

// words splits a key into words; the empty key has none, as in RabbitMQ.
func words(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ".")
}

func matchWords(p, k []string) bool {
	for len(p) > 0 {
		switch p[0] {
		case "#":
			for i := 0; i <= len(k); i++ {
				if matchWords(p[1:], k[i:]) {
					return true
				}
			}
			return false
		case "*":
			if len(k) == 0 {
				return false
			}
		default:
			if len(k) == 0 || k[0] != p[0] {
				return false
			}
		}
		p, k = p[1:], k[1:]
	}
	return len(k) == 0
}

// memMessage is one message in one queue.
type memMessage struct {
	exchange, key string
	out           Message
	redelivered   bool
	returns       int64  // times returned to the queue (a quorum queue's x-delivery-count)
	seq           uint64 // publish order within the queue
	expireAt      time.Time
}

func newMemMessage(exchange, key string, msg Message, now time.Time) *memMessage {
	msg.Headers = maps.Clone(msg.Headers)
	m := &memMessage{exchange: exchange, key: key, out: msg}
	if ms, ok := amqpvalue.ParseExpiration(msg.Expiration); ok {
		m.expireAt = now.Add(time.Duration(ms) * time.Millisecond)
	}
	return m
}

// delivery renders the message for a consumer, with its own header map.
func (m *memMessage) delivery(acker Acker) Delivery {
	d := Delivery{Message: m.out, Exchange: m.exchange, RoutingKey: m.key, Redelivered: m.redelivered, Acker: acker}
	d.Headers = maps.Clone(m.out.Headers)
	return d
}

// settled acknowledges a message that was settled when it was taken.
type settled struct{}

// Ack does nothing: the message was settled when it was taken.
func (settled) Ack() error { return nil }

// Nack does nothing: the message was settled when it was taken.
func (settled) Nack(bool) error { return nil }

// RefusedError is a publish RabbitMQ answers by closing the channel (to an
// exchange that does not exist): sending it again is refused again.
type RefusedError struct{ Err error }

func (e RefusedError) Error() string { return e.Err.Error() }

// Unwrap returns the broker's error.
func (e RefusedError) Unwrap() error { return e.Err }
