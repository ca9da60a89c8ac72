package memq

import (
	"errors"
	"sync"
)

// ErrClosed is returned by every call on a closed connection.
var ErrClosed = errors.New("memory: the connection is closed")

// Conn is one connection to a broker: the owner of its exclusive queues and
// of its subscriptions, which close with it. Safe for concurrent use.
type Conn struct {
	b      *Broker
	mu     sync.Mutex
	closed bool
	subs   map[*Subscription]struct{}
}

// Connect opens a connection to the broker.
func (b *Broker) Connect() *Conn {
	return &Conn{b: b, subs: map[*Subscription]struct{}{}}
}

// check fails when the connection is closed.
func (c *Conn) check() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return ErrClosed
	}
	return nil
}

// DeclareQueue declares name, refusing different settings with
// PRECONDITION_FAILED. An exclusive queue belongs to this connection: others
// are locked out of it, and it goes when the connection closes.
func (c *Conn) DeclareQueue(name string, spec QueueSpec) error {
	if err := c.check(); err != nil {
		return err
	}
	return c.b.declareQueue(c, name, spec)
}

// DeclareExchange declares name, refusing different settings with
// PRECONDITION_FAILED.
func (c *Conn) DeclareExchange(name string, spec ExchangeSpec) error {
	if err := c.check(); err != nil {
		return err
	}
	return c.b.declareExchange(name, spec)
}

// Bind binds queue to exchange with key; both must be declared.
func (c *Conn) Bind(queue, exchange, key string) error {
	if err := c.check(); err != nil {
		return err
	}
	return c.b.bind(c, queue, exchange, key)
}

// Publish routes msg from exchange with key to every matching queue and
// reports what became of it. Its headers are stored as RabbitMQ hands them
// back (amqpvalue.Rules with AsReceived); a header AMQP cannot carry or an
// invalid Expiration is refused, with nothing published.
func (c *Conn) Publish(exchange, key string, msg Message) (Published, error) {
	if err := c.check(); err != nil {
		return Published{}, err
	}
	msg, err := c.b.stored(msg)
	if err != nil {
		return Published{}, err
	}
	return c.b.routeMessage(exchange, key, msg)
}

// MessageCount returns the number of ready messages in queue.
func (c *Conn) MessageCount(queue string) (int, error) {
	if err := c.check(); err != nil {
		return 0, err
	}
	return c.b.messageCount(c, queue)
}

// Pull takes the next ready message of queue, settled as it is taken; ok is
// false when there is none.
func (c *Conn) Pull(queue string) (d Delivery, ok bool, err error) {
	if err := c.check(); err != nil {
		return Delivery{}, false, err
	}
	return c.b.pull(c, queue)
}

// adopt makes s one of the connection's subscriptions, closed with it.
func (c *Conn) adopt(s *Subscription) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		go s.Close()
		return ErrClosed
	}
	s.conn = c
	c.subs[s] = struct{}{}
	return nil
}

// dropSub drops a closed subscription from the connection's set.
func (c *Conn) dropSub(s *Subscription) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.subs, s)
}

// Close closes every subscription of this connection, returning their
// unsettled messages to their queues, and deletes its exclusive queues. The
// broker itself lives on. Idempotent.
func (c *Conn) Close() error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	c.closed = true
	subs := c.subs
	c.subs = nil
	c.mu.Unlock()
	for s := range subs {
		_ = s.Close()
	}
	c.b.dropExclusive(c)
	return nil
}
