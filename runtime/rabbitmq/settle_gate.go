package rabbitmq

import (
	"sync"

	amqp "github.com/rabbitmq/amqp091-go"
)

// settleGate keeps settlements off a channel its subscription is closing.
// amqp091-go marks a channel closed only once the broker's close-ok
// arrives, so an ack sent in between reaches a broker that has already
// closed the channel, and RabbitMQ answers it by closing the whole
// connection (504 CHANNEL_ERROR "expected 'channel.open'"): every other
// consumer and publisher on it would pay for one responder's restart. A
// settlement in progress finishes before the close is sent; one after it
// fails as on a closed channel (the broker delivers the message again).
type settleGate struct {
	mu     sync.RWMutex
	closed bool
}

// settle runs f, the sending of one settlement, unless the gate is closed.
// A nil gate always runs f.
func (g *settleGate) settle(f func() error) error {
	if g == nil {
		return f()
	}
	g.mu.RLock()
	defer g.mu.RUnlock()
	if g.closed {
		return amqp.ErrClosed
	}
	return f()
}

// close shuts the gate, once every settlement in progress is sent, then
// closes ch.
func (g *settleGate) close(ch *amqp.Channel) error {
	g.mu.Lock()
	g.closed = true
	g.mu.Unlock()
	return ch.Close()
}
