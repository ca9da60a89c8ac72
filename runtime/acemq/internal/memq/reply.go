package memq

// ConsumeReplies creates name, an exclusive auto-delete pseudo-queue like
// RabbitMQ's direct reply-to addresses (amq.rabbitmq.reply-to.*), reached
// through the default exchange, and consumes it for this connection without
// acknowledgements: each message is settled as it is handed to handler.
// Closing the subscription (or the connection) deletes the pseudo-queue;
// messages published to it after that reach no queue.
func (c *Conn) ConsumeReplies(name string, handler func(Delivery)) (*Subscription, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	if err := c.b.addReplyQueue(name); err != nil {
		return nil, err
	}
	s, err := c.b.subscribe(nil, name, ConsumeSpec{}, func(d Delivery) {
		_ = d.Acker.Ack()
		handler(d)
	})
	if err == nil {
		err = c.adopt(s)
	}
	return s, err
}

// addReplyQueue creates an auto-delete pseudo-queue, deleted with its consumer.
func (b *Broker) addReplyQueue(name string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	q, err := newMemQueue(b, name, QueueSpec{AutoDelete: true, Exclusive: true})
	if err != nil {
		return err
	}
	b.queues[name] = q
	return nil
}
