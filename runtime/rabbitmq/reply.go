package rabbitmq

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// directReplyTo is RabbitMQ's pseudo-queue for direct reply-to.
const directReplyTo = "amq.rabbitmq.reply-to"

// OpenReplies starts a direct reply-to subscription (amq.rabbitmq.reply-to,
// no-ack) on a channel of its own; requests must be published with the
// returned channel's Publish, on that same channel, as the broker requires.
// The channel's address (amq.rabbitmq.reply-to.<…>, which the broker
// assigns) is learnt once, by sending one probe message to a private
// server-named queue. After a lost connection or channel, the next Publish
// reopens the subscription on the live connection, under a new address;
// replies to the old one are lost. So does a channel error caused by a
// request (one published to a missing exchange closes the channel, as the
// broker does): the calls waiting on the old channel time out.
func (t *Transport) OpenReplies(ctx context.Context, deliver func(driver.Delivery)) (driver.ReplyChannel, error) {
	if deliver == nil {
		return nil, errors.New("acemq: OpenReplies was given a nil deliver func")
	}
	r := &replyChannel{t: t, deliver: deliver, opening: make(chan struct{}, 1)}
	if _, err := r.live(ctx); err != nil {
		return nil, fmt.Errorf("direct reply-to: %w", err)
	}
	return r, nil
}

// replyChannel is one direct reply-to subscription. Safe for concurrent use.
type replyChannel struct {
	t       *Transport
	deliver func(driver.Delivery)
	opening chan struct{} // held while a line is being opened
	mu      sync.Mutex    // guards line and closed
	line    *replyLine
	closed  bool
	wg      sync.WaitGroup
}

// replyLine is the subscription on one AMQP channel.
type replyLine struct {
	conn    *amqp.Connection
	ch      *amqp.Channel
	address string
	returns *returnLog
}

func (l *replyLine) alive() bool { return l != nil && !l.ch.IsClosed() && !l.conn.IsClosed() }

// live returns the running line, opening one when there is none. Only one
// caller opens at a time; the others wait as long as their ctx allows.
func (r *replyChannel) live(ctx context.Context) (*replyLine, error) {
	if line, err := r.current(); line != nil || err != nil {
		return line, err
	}
	select {
	case r.opening <- struct{}{}:
	case <-ctx.Done():
		return nil, fmt.Errorf("the reply channel is reopening: %w", ctx.Err())
	}
	defer func() { <-r.opening }()
	if line, err := r.current(); line != nil || err != nil {
		return line, err
	}
	line, err := r.openOnLive(ctx)
	if err != nil {
		return nil, err
	}
	return r.install(line)
}

// current returns the running line, nil when there is none, or ErrClosed.
func (r *replyChannel) current() (*replyLine, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil, ErrClosed
	}
	if r.line.alive() {
		return r.line, nil
	}
	return nil, nil
}

// install makes line the running one, unless Close came first.
func (r *replyChannel) install(line *replyLine) (*replyLine, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		_ = line.ch.Close()
		return nil, ErrClosed
	}
	r.line = line
	return line, nil
}

// openOnLive opens a line on the live connection, waiting for recovery when
// the connection drops under it (or is dropping, not yet noticed).
func (r *replyChannel) openOnLive(ctx context.Context) (*replyLine, error) {
	for {
		conn, err := r.t.connection(ctx)
		if err != nil {
			return nil, err
		}
		line, err := r.open(ctx, conn)
		if !unwritten(err) {
			return line, err
		}
		if !conn.IsClosed() && !r.t.sleep(time.Millisecond) {
			return nil, ErrClosed
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
	}
}

// open starts consuming replies on a new channel of conn and learns its address.
func (r *replyChannel) open(ctx context.Context, conn *amqp.Connection) (*replyLine, error) {
	ch, err := conn.Channel()
	if err != nil {
		return nil, err
	}
	line, err := r.start(ctx, conn, ch)
	if err != nil {
		_ = ch.Close()
		return nil, err
	}
	return line, nil
}

func (r *replyChannel) start(ctx context.Context, conn *amqp.Connection, ch *amqp.Channel) (*replyLine, error) {
	deliveries, err := consumeReplies(ch, r.t.cfg.confirms)
	if err != nil {
		return nil, err
	}
	address, err := probeAddress(ctx, ch)
	if err != nil {
		return nil, fmt.Errorf("cannot learn the reply address: %w", err)
	}
	line := &replyLine{conn: conn, ch: ch, address: address,
		returns: newReturnLog(ch.NotifyReturn(make(chan amqp.Return)))}
	r.wg.Add(1)
	go r.loop(deliveries)
	return line, nil
}

// consumeReplies puts ch in confirm mode (when confirms are on) and consumes
// amq.rabbitmq.reply-to on it without acknowledgements.
func consumeReplies(ch *amqp.Channel, confirms bool) (<-chan amqp.Delivery, error) {
	if confirms {
		if err := ch.Confirm(false); err != nil {
			return nil, err
		}
	}
	return ch.Consume(directReplyTo, "", true, false, false, false, nil)
}

func (r *replyChannel) loop(deliveries <-chan amqp.Delivery) {
	defer r.wg.Done()
	for d := range deliveries {
		r.deliver(toDelivery(d))
	}
}

// probeAddress sends one message with reply-to amq.rabbitmq.reply-to through
// a private queue and reads back the address the broker wrote in its place.
func probeAddress(ctx context.Context, ch *amqp.Channel) (string, error) {
	q, err := ch.QueueDeclare("", false, true, true, false, nil)
	if err != nil {
		return "", err
	}
	defer func() { _, _ = ch.QueueDelete(q.Name, false, false, false) }()
	dc, err := ch.PublishWithDeferredConfirmWithContext(ctx, "", q.Name, false, false,
		amqp.Publishing{ReplyTo: directReplyTo, DeliveryMode: amqp.Transient})
	if err == nil && dc != nil {
		_, err = dc.WaitContext(ctx)
	}
	if err != nil {
		return "", err
	}
	return getReplyTo(ctx, ch, q.Name)
}

// getReplyTo takes the probe from queue, waiting a little for it to arrive.
func getReplyTo(ctx context.Context, ch *amqp.Channel, queue string) (string, error) {
	for delay := time.Millisecond; ; delay = min(2*delay, 50*time.Millisecond) {
		m, ok, err := ch.Get(queue, true)
		if err != nil || ok {
			return m.ReplyTo, err
		}
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(delay):
		}
	}
}

// Address returns the broker-assigned address of the live subscription, ""
// while it is down.
func (r *replyChannel) Address() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.line == nil {
		return ""
	}
	return r.line.address
}

// Publish sends msg on the reply subscription's channel, addressed to it,
// and (with confirms, the default) waits for the broker's confirm. A message
// that could not be written because the channel or connection had just
// closed is sent again on the reopened channel. Errors carry no "acemq:"
// prefix, as Transport.Publish's.
func (r *replyChannel) Publish(ctx context.Context, exchange, key string, msg driver.Outbound) (acemq.PublishResult, error) {
	for {
		line, err := r.live(ctx)
		if err != nil {
			return acemq.PublishResult{}, err
		}
		res, err := line.publish(ctx, exchange, key, msg)
		if !unwritten(err) || ctx.Err() != nil {
			return res, err
		}
		r.discard(line)
	}
}

// unwritten reports a publish that failed before reaching the socket's
// peer: the channel or the connection was already closed.
func unwritten(err error) bool {
	return errors.Is(err, amqp.ErrClosed) || errors.Is(err, net.ErrClosed)
}

// discard forgets line, if it is still the running one.
func (r *replyChannel) discard(line *replyLine) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.line == line {
		r.line = nil
	}
}

// publish sends msg on the line, stamped with its address.
func (l *replyLine) publish(ctx context.Context, exchange, key string, msg driver.Outbound) (acemq.PublishResult, error) {
	msg = driver.StampReplyAddress(msg, l.address)
	pm, err := toPublishing(msg)
	if err != nil {
		return acemq.PublishResult{}, err
	}
	pm.ReplyTo = directReplyTo // the broker writes the channel's address in its place
	dc, err := l.ch.PublishWithDeferredConfirmWithContext(ctx, exchange, key, msg.Mandatory, false, pm)
	if err != nil || dc == nil {
		return acemq.PublishResult{MessageID: msg.MessageID, Routed: err == nil}, err
	}
	return l.await(ctx, dc, msg)
}

// await waits for msg's confirm and turns it into a result.
func (l *replyLine) await(ctx context.Context, dc *amqp.DeferredConfirmation, msg driver.Outbound) (acemq.PublishResult, error) {
	select {
	case <-dc.Done():
	case <-ctx.Done():
		return acemq.PublishResult{}, fmt.Errorf("stopped waiting for the broker's confirm; it may or may not have been delivered: %w", ctx.Err())
	}
	if !dc.Acked() {
		return acemq.PublishResult{}, l.nackError()
	}
	res := acemq.PublishResult{MessageID: msg.MessageID, Confirmed: true, Routed: true}
	if msg.Mandatory {
		reason, returned := l.returns.returned(msg.MessageID)
		res.Routed, res.ReturnReason = !returned, reason
	}
	return res, nil
}

// nackError tells a broker nack from a channel that closed under the publish.
func (l *replyLine) nackError() error {
	if l.ch.IsClosed() {
		return ErrConfirmLost
	}
	return ErrBrokerRefused
}

// Close cancels the subscription and closes its channel. Idempotent.
func (r *replyChannel) Close() error {
	r.mu.Lock()
	line, was := r.line, r.closed
	r.closed, r.line = true, nil
	r.mu.Unlock()
	if was || line == nil {
		return nil
	}
	err := line.ch.Close()
	r.wg.Wait()
	if errors.Is(err, amqp.ErrClosed) {
		err = nil
	}
	return err
}
