// Package replyto is the raw baselines' direct reply-to plumbing: the
// benchmarks and the side-by-side runner route replies the same way.
package replyto

import (
	"sync"

	amqp "github.com/rabbitmq/amqp091-go"
)

// Queue is RabbitMQ's direct reply-to pseudo-queue.
const Queue = "amq.rabbitmq.reply-to"

// Router hands each reply consumed from Queue to the call waiting for its
// correlation id. Safe for concurrent use.
type Router struct {
	mu      sync.Mutex
	pending map[string]chan amqp.Delivery
}

// Start consumes Queue on ch (no-ack, as direct reply-to requires) and
// routes the replies until ch closes.
func Start(ch *amqp.Channel) (*Router, error) {
	replies, err := ch.Consume(Queue, "", true, false, false, false, nil)
	if err != nil {
		return nil, err
	}
	r := &Router{pending: map[string]chan amqp.Delivery{}}
	go r.route(replies)
	return r, nil
}

// Expect returns the channel the reply correlated by id will arrive on;
// call it before publishing the request.
func (r *Router) Expect(id string) <-chan amqp.Delivery {
	c := make(chan amqp.Delivery, 1)
	r.mu.Lock()
	r.pending[id] = c
	r.mu.Unlock()
	return c
}

func (r *Router) route(replies <-chan amqp.Delivery) {
	for d := range replies {
		r.mu.Lock()
		c := r.pending[d.CorrelationId]
		delete(r.pending, d.CorrelationId)
		r.mu.Unlock()
		if c != nil {
			c <- d
		}
	}
}
