package rabbitmq

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"sync"

	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// Consume subscribes to queue on a channel of its own with manual acks and
// basic.qos(spec.Prefetch), and calls deliver for each message from one
// goroutine, in the order the broker sent them. After recovery the
// subscription resumes on the new connection with the same deliver func;
// deliveries from before the loss can no longer be settled (the broker
// delivers them again, marked redelivered).
func (t *Transport) Consume(ctx context.Context, queue string, spec driver.ConsumeSpec, deliver func(driver.Delivery)) (driver.Subscription, error) {
	if deliver == nil {
		return nil, errors.New("acemq: Consume was given a nil deliver func")
	}
	if spec.Prefetch > math.MaxUint16 {
		return nil, fmt.Errorf("acemq: cannot consume from queue %q: prefetch %d is more than AMQP's %d", queue, spec.Prefetch, math.MaxUint16)
	}
	s := &subscription{t: t, queue: queue, spec: spec, deliver: deliver, tag: spec.Tag}
	if s.tag == "" {
		s.tag = "acemq-" + randomHex()
	}
	if err := s.startOnLive(ctx); err != nil {
		return nil, fmt.Errorf("acemq: cannot consume from queue %q: %w", queue, err)
	}
	t.addSub(s)
	return s, nil
}

// startOnLive starts on the live connection, waiting for recovery when the
// connection drops under it.
func (s *subscription) startOnLive(ctx context.Context) error {
	for {
		conn, err := s.t.connection(ctx)
		if err != nil {
			return err
		}
		err = s.start(conn)
		if !errors.Is(err, amqp.ErrClosed) || !conn.IsClosed() {
			return err
		}
	}
}

// subscription is one running Consume. Safe for concurrent use.
type subscription struct {
	t       *Transport
	queue   string
	spec    driver.ConsumeSpec
	deliver func(driver.Delivery)
	tag     string

	mu      sync.Mutex
	conn    *amqp.Connection
	ch      *amqp.Channel
	gate    *settleGate // ch's: closing ch shuts it first
	stopped bool        // Cancel or Close was called
	wg      sync.WaitGroup
}

// start opens a channel on conn and consumes on it, unless the subscription
// already runs on conn or was stopped.
func (s *subscription) start(conn *amqp.Connection) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped || (s.conn == conn && s.ch != nil && !s.ch.IsClosed()) {
		return nil
	}
	ch, deliveries, err := s.open(conn)
	if err != nil {
		return err
	}
	s.conn, s.ch, s.gate = conn, ch, newSettleGate(ch, s.spec.Prefetch)
	s.wg.Add(1)
	go s.loop(conn, ch, s.gate, deliveries)
	return nil
}

func (s *subscription) open(conn *amqp.Connection) (*amqp.Channel, <-chan amqp.Delivery, error) {
	spec := s.spec.Args
	if s.spec.ResumeArgs != nil {
		spec = s.spec.ResumeArgs()
	}
	args, err := toTable(spec)
	if err != nil {
		return nil, nil, err
	}
	ch, err := conn.Channel()
	if err != nil {
		return nil, nil, err
	}
	if err = ch.Qos(max(s.spec.Prefetch, 0), 0, false); err == nil {
		var deliveries <-chan amqp.Delivery
		deliveries, err = ch.Consume(s.queue, s.tag, false, false, false, false, args)
		if err == nil {
			return ch, deliveries, nil
		}
	}
	_ = ch.Close()
	return nil, nil, err
}

func (s *subscription) loop(conn *amqp.Connection, ch *amqp.Channel, gate *settleGate, deliveries <-chan amqp.Delivery) {
	defer s.wg.Done()
	for d := range deliveries {
		gate.delivered(d.DeliveryTag)
		s.deliver(gatedDelivery(d, gate))
	}
	if s.cancelledByBroker(conn, ch, gate) {
		return
	}
	s.heal(conn, ch)
}

// cancelledByBroker reports whether the deliveries ended because the broker
// cancelled the subscription (basic.cancel: its queue was deleted) while ch
// and conn stay open. With an OnCancel the subscription then stops for good,
// leaves the transport (recovery does not resume it), closes ch and tells
// OnCancel; without one it just ends, as before.
func (s *subscription) cancelledByBroker(conn *amqp.Connection, ch *amqp.Channel, gate *settleGate) bool {
	s.mu.Lock()
	byBroker := !s.stopped && !ch.IsClosed() && !conn.IsClosed()
	if byBroker && s.spec.OnCancel != nil {
		s.stopped = true
	}
	s.mu.Unlock()
	if !byBroker || s.spec.OnCancel == nil {
		return byBroker
	}
	s.t.removeSub(s)
	_ = gate.close(ch)
	s.spec.OnCancel(fmt.Errorf("acemq: the broker cancelled the subscription to queue %q (the queue was deleted, or its node lost)", s.queue))
	return true
}

// heal reopens the subscription after its channel alone closed (say, after
// a channel error); a lost connection is left to recovery, and a cancelled
// subscription stays cancelled.
func (s *subscription) heal(conn *amqp.Connection, ch *amqp.Channel) {
	delay := s.t.cfg.delay.min
	for ch.IsClosed() && !conn.IsClosed() && !s.isStopped() {
		if !s.t.sleep(delay) || s.start(conn) == nil {
			return
		}
		delay = min(2*delay, s.t.cfg.delay.max)
	}
}

func (s *subscription) isStopped() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stopped
}

// Cancel stops new deliveries (basic.cancel); deliveries already handed out
// can still be settled. Idempotent.
func (s *subscription) Cancel() error {
	s.mu.Lock()
	ch, was := s.ch, s.stopped
	s.stopped = true
	s.mu.Unlock()
	if was || ch == nil || ch.IsClosed() {
		return nil
	}
	if err := ch.Cancel(s.tag, false); err != nil && !errors.Is(err, amqp.ErrClosed) {
		return fmt.Errorf("acemq: cannot cancel the subscription to queue %q: %w", s.queue, err)
	}
	return nil
}

// Close stops deliveries and closes the channel: deliveries not yet settled
// return to the queue. It does not wait for a deliver call in progress.
// Idempotent.
func (s *subscription) Close() error {
	err := s.Cancel()
	s.mu.Lock()
	ch, gate := s.ch, s.gate
	s.mu.Unlock()
	s.t.removeSub(s)
	if ch != nil {
		if cerr := gate.close(ch); cerr != nil && !errors.Is(cerr, amqp.ErrClosed) && err == nil {
			err = fmt.Errorf("acemq: cannot close the subscription to queue %q: %w", s.queue, cerr)
		}
	}
	return err
}

func (t *Transport) addSub(s *subscription) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.subs[s] = struct{}{}
}

func (t *Transport) removeSub(s *subscription) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.subs, s)
}

// resumeAll restarts every subscription on conn after recovery.
func (t *Transport) resumeAll(conn *amqp.Connection) error {
	t.mu.Lock()
	subs := make([]*subscription, 0, len(t.subs))
	for s := range t.subs {
		subs = append(subs, s)
	}
	t.mu.Unlock()
	var errs []error
	for _, s := range subs {
		if err := s.start(conn); err != nil && !s.queueGone(err) {
			errs = append(errs, fmt.Errorf("acemq: cannot resume consuming from queue %q: %w", s.queue, err))
		}
	}
	return errors.Join(errs...)
}

// queueGone reports whether err, from resuming s after recovery, says its
// queue no longer exists (deleted while the connection was down) and s has
// an OnCancel: s then stops as if the broker had cancelled it, and OnCancel
// is told, so its owner declares the queue again or waits for it.
func (s *subscription) queueGone(err error) bool {
	if amqpCode(err) != amqp.NotFound || s.spec.OnCancel == nil {
		return false
	}
	s.mu.Lock()
	was := s.stopped
	s.stopped = true
	s.mu.Unlock()
	if was {
		return true
	}
	s.t.removeSub(s)
	go s.spec.OnCancel(fmt.Errorf("acemq: queue %q no longer exists after recovery: %w", s.queue, err))
	return true
}

func randomHex() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
