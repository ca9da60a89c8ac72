package acemq

import (
	"maps"
	"strings"
	"time"
)

// publish routes one message to every matching queue and reports whether it
// reached any, and the first queue that refused it for being full.
// Publishing to an undeclared exchange is NOT_FOUND.
func (b *memBroker) publish(exchange, key string, msg Outbound) (routed bool, refusedBy *memQueue, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	queues, err := b.route(exchange, key)
	if err != nil {
		return false, nil, err
	}
	now := time.Now()
	for _, q := range queues {
		if !q.offer(newMemMessage(exchange, key, msg, now)) && refusedBy == nil {
			refusedBy = q
		}
	}
	return len(queues) > 0, refusedBy, nil
}

// wireOutbound returns msg as the broker would store it (see wireHeaders),
// refusing headers AMQP cannot carry and an invalid expiration.
func (b *memBroker) wireOutbound(msg Outbound) (Outbound, error) {
	headers, err := wireHeaders(msg.Headers)
	if err == nil {
		err = checkExpiration(msg.Expiration)
	}
	if err != nil {
		return Outbound{}, b.errorf("message %s: %w", msg.MessageID, err)
	}
	msg.Headers = headers
	return msg, nil
}

// route returns the queues a message published to exchange with key reaches,
// each once. Call with b.mu held.
func (b *memBroker) route(exchange, key string) ([]*memQueue, error) {
	if exchange == "" {
		if q, ok := b.queues[key]; ok {
			return []*memQueue{q}, nil
		}
		return nil, nil
	}
	x, ok := b.exchanges[exchange]
	if !ok {
		return nil, b.errorf("404 NOT_FOUND - no exchange %q", exchange)
	}
	return b.boundOrAlternate(x, key), nil
}

// boundOrAlternate returns the queues bound to x that match key or, when
// none do, those its alternate-exchange (and that one's, and so on) routes
// to, as RabbitMQ does. Call with b.mu held.
func (b *memBroker) boundOrAlternate(x *memExchange, key string) []*memQueue {
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
func (b *memBroker) bound(x *memExchange, key string) []*memQueue {
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
	out           Outbound
	redelivered   bool
	returns       int64  // times returned to the queue (a quorum queue's x-delivery-count)
	seq           uint64 // publish order within the queue
	expireAt      time.Time
}

func newMemMessage(exchange, key string, msg Outbound, now time.Time) *memMessage {
	msg.Headers = maps.Clone(msg.Headers)
	m := &memMessage{exchange: exchange, key: key, out: msg}
	if ms, ok := parseExpiration(msg.Expiration); ok {
		m.expireAt = now.Add(time.Duration(ms) * time.Millisecond)
	}
	return m
}

// delivery renders the message for a consumer, with its own header map.
func (m *memMessage) delivery(acker Acknowledger) Delivery {
	return Delivery{
		Body: m.out.Body, ContentType: m.out.ContentType, Exchange: m.exchange,
		RoutingKey: m.key, MessageID: m.out.MessageID, ReplyTo: m.out.ReplyTo,
		CorrelationID: m.out.CorrelationID, Expiration: m.out.Expiration,
		Headers: maps.Clone(m.out.Headers), Redelivered: m.redelivered, Acker: acker,
	}
}

// settledAcker acknowledges a message that was settled when it was taken.
type settledAcker struct{}

// Ack does nothing: the message was settled when it was taken.
func (settledAcker) Ack() error { return nil }

// Nack does nothing: the message was settled when it was taken.
func (settledAcker) Nack(bool) error { return nil }
