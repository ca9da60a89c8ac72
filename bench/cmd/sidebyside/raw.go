package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/acemq/acemq-gen/bench/internal/replyto"
	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
)

// publishRaw publishes event i to queue q through ch and returns its
// deferred confirmation.
func publishRaw(ctx context.Context, ch *amqp.Channel, q string, i int) (*amqp.DeferredConfirmation, error) {
	msg, err := rawMessage(i, q)
	if err != nil {
		return nil, err
	}
	return ch.PublishWithDeferredConfirmWithContext(ctx, "", q, false, false, msg)
}

// rawMessage renders event i as the runtime would, by hand: JSON body,
// content type, a fresh message id and the family's seven headers (id,
// type, version, correlation, attempt, first-seen, origin), persistent.
// Every raw contender does this per message, so that both sides put the
// same bytes on the wire and do the same kind of work for them.
func rawMessage(i int, key string) (amqp.Publishing, error) {
	body, err := json.Marshal(newEvent(i))
	if err != nil {
		return amqp.Publishing{}, err
	}
	id := acemq.NewUUID()
	headers := amqp.Table{
		semconv.HeaderID: id, semconv.HeaderType: key, semconv.HeaderVersion: int64(1), semconv.HeaderCorrelation: id,
		semconv.HeaderAttempt: int64(1), semconv.HeaderFirstSeen: time.Now().UnixMilli(), semconv.HeaderOrigin: "sidebyside",
	}
	return amqp.Publishing{Headers: headers, ContentType: "application/json", MessageId: id,
		DeliveryMode: amqp.Persistent, Body: body}, nil
}

// rawQueue dials, opens a confirm-mode channel and declares a fresh quorum queue.
func rawQueue(e *env, prefix string) (*amqp.Connection, *amqp.Channel, string, error) {
	conn, err := amqp.Dial(e.url)
	if err != nil {
		return nil, nil, "", err
	}
	ch, err := conn.Channel()
	if err == nil {
		err = ch.Confirm(false)
	}
	q := queueName(prefix)
	if err == nil {
		_, err = ch.QueueDeclare(q, true, false, false, false, quorumArgs)
	}
	if err != nil {
		_ = conn.Close()
		return nil, nil, "", err
	}
	return conn, ch, q, nil
}

func rawClosing(e *env, conn *amqp.Connection, q string) func() {
	return func() {
		_ = conn.Close()
		deleteQueues(e.url, q)
	}
}

var errNack = errors.New("the broker nacked a publish")

// rawStream keeps a sliding window of 1,000 unconfirmed publishes: once
// 1,000 are out, each publish first waits for the oldest confirm.
func rawStream(_ context.Context, e *env, n int) (trial, error) {
	conn, ch, q, err := rawQueue(e, "raw-stream")
	if err != nil {
		return trial{}, err
	}
	run := func(ctx context.Context) error {
		out := make([]*amqp.DeferredConfirmation, 0, n)
		oldest := 0
		for i := range n {
			if len(out)-oldest == window {
				if !out[oldest].Wait() {
					return errNack
				}
				oldest++
			}
			dc, err := publishRaw(ctx, ch, q, i)
			if err != nil {
				return err
			}
			out = append(out, dc)
		}
		for _, dc := range out[oldest:] {
			if !dc.Wait() {
				return errNack
			}
		}
		return nil
	}
	return trial{run: run, teardown: rawClosing(e, conn, q)}, nil
}

// rawBatch publishes 1,000, then waits for all 1,000 confirms, and again.
func rawBatch(_ context.Context, e *env, n int) (trial, error) {
	conn, ch, q, err := rawQueue(e, "raw-batch")
	if err != nil {
		return trial{}, err
	}
	run := func(ctx context.Context) error {
		dcs := make([]*amqp.DeferredConfirmation, 0, window)
		for done := 0; done < n; done += len(dcs) {
			dcs = dcs[:0]
			for i := done; i < min(n, done+window); i++ {
				dc, err := publishRaw(ctx, ch, q, i)
				if err != nil {
					return err
				}
				dcs = append(dcs, dc)
			}
			for _, dc := range dcs {
				if !dc.Wait() {
					return errNack
				}
			}
		}
		return nil
	}
	return trial{run: run, teardown: rawClosing(e, conn, q)}, nil
}

// rawSendN publishes from g goroutines on one channel, each waiting for
// its own confirm.
func rawSendN(g int) func(context.Context, *env, int) (trial, error) {
	return func(_ context.Context, e *env, n int) (trial, error) {
		conn, ch, q, err := rawQueue(e, "raw-send")
		if err != nil {
			return trial{}, err
		}
		run := func(ctx context.Context) error {
			return spread(n, g, func(i int) error {
				dc, err := publishRaw(ctx, ch, q, i)
				if err != nil {
					return err
				}
				if ok, err := dc.WaitContext(ctx); err != nil || !ok {
					return errors.Join(err, errNack)
				}
				return nil
			})
		}
		return trial{run: run, teardown: rawClosing(e, conn, q)}, nil
	}
}

// rawConsume takes n events, filled by the runtime's SendAll (so with the
// same headers), off the queue with manual acks at prefetch 1,000, decoding
// each body as JSON and acking it.
func rawConsume(ctx context.Context, e *env, n int) (trial, error) {
	conn, q, err := filledQueue(ctx, e, "raw-consume", n)
	if err != nil {
		return trial{}, err
	}
	rc, err := amqp.Dial(e.url)
	if err != nil {
		closing(e, conn, q)()
		return trial{}, err
	}
	run := func(ctx context.Context) error {
		ch, deliveries, err := rawDeliveries(ctx, rc, q, window, nil)
		if err != nil {
			return err
		}
		defer ch.Close()
		for got := 0; got < n; got++ {
			d, ok := <-deliveries
			if !ok {
				return fmt.Errorf("the delivery channel closed after %d of %d", got, n)
			}
			var ev event
			if err := json.Unmarshal(d.Body, &ev); err != nil {
				return err
			}
			if err := d.Ack(false); err != nil {
				return err
			}
		}
		return nil
	}
	teardown := func() {
		_ = rc.Close()
		closing(e, conn, q)()
	}
	return trial{run: run, teardown: teardown}, nil
}

// rawDeliveries opens a channel on rc with prefetch and consumes q with
// manual acks and the consume arguments args.
func rawDeliveries(ctx context.Context, rc *amqp.Connection, q string, prefetch int, args amqp.Table) (*amqp.Channel, <-chan amqp.Delivery, error) {
	ch, err := rc.Channel()
	if err != nil {
		return nil, nil, err
	}
	var deliveries <-chan amqp.Delivery
	if err = ch.Qos(prefetch, 0, false); err == nil {
		deliveries, err = ch.ConsumeWithContext(ctx, q, "", false, false, false, false, args)
	}
	if err != nil {
		_ = ch.Close()
		return nil, nil, err
	}
	return ch, deliveries, nil
}

// rawRPC makes n calls from callers goroutines: a requester channel in
// confirm mode consuming amq.rabbitmq.reply-to, each request persistent,
// mandatory and confirmed before its reply is awaited; a responder that
// decodes the request, publishes the reply confirmed, waits for the
// confirm, then acks the request (callers at once).
func rawRPC(callers int) func(context.Context, *env, int) (trial, error) {
	return func(_ context.Context, e *env, n int) (trial, error) {
		server, sch, q, err := rawQueue(e, "raw-rpc")
		if err != nil {
			return trial{}, err
		}
		if err := rawResponder(sch, q, callers); err != nil {
			rawClosing(e, server, q)()
			return trial{}, err
		}
		client, err := amqp.Dial(e.url)
		if err != nil {
			rawClosing(e, server, q)()
			return trial{}, err
		}
		r, err := newRawRequester(client)
		if err != nil {
			_ = client.Close()
			rawClosing(e, server, q)()
			return trial{}, err
		}
		run := func(ctx context.Context) error {
			return spread(n, callers, func(i int) error { return r.call(ctx, q, i) })
		}
		teardown := func() {
			_ = client.Close()
			rawClosing(e, server, q)()
		}
		return trial{run: run, teardown: teardown}, nil
	}
}

// rawResponder echoes each request to its reply-to, confirmed, then acks it.
func rawResponder(ch *amqp.Channel, q string, concurrency int) error {
	if err := ch.Qos(2*concurrency, 0, false); err != nil {
		return err
	}
	deliveries, err := ch.Consume(q, "", false, false, false, false, nil)
	if err != nil {
		return err
	}
	slots := make(chan struct{}, concurrency)
	go func() {
		for d := range deliveries {
			slots <- struct{}{}
			go func() {
				defer func() { <-slots }()
				var ev event
				if json.Unmarshal(d.Body, &ev) != nil {
					_ = d.Nack(false, false)
					return
				}
				body, _ := json.Marshal(ev)
				dc, err := ch.PublishWithDeferredConfirm("", d.ReplyTo, false, false, amqp.Publishing{
					CorrelationId: d.CorrelationId, ContentType: "application/json", Body: body})
				if err == nil {
					dc.Wait()
				}
				_ = d.Ack(false)
			}()
		}
	}()
	return nil
}

// rawRequester is a direct reply-to client whose requests are confirmed.
type rawRequester struct {
	ch      *amqp.Channel
	replies *replyto.Router
}

func newRawRequester(conn *amqp.Connection) (*rawRequester, error) {
	ch, err := conn.Channel()
	if err != nil {
		return nil, err
	}
	if err := ch.Confirm(false); err != nil {
		return nil, err
	}
	replies, err := replyto.Start(ch)
	if err != nil {
		return nil, err
	}
	return &rawRequester{ch: ch, replies: replies}, nil
}

func (r *rawRequester) call(ctx context.Context, q string, i int) error {
	id := strconv.Itoa(i) + "-" + acemq.NewUUID()
	msg, err := rawMessage(i, q)
	if err != nil {
		return err
	}
	msg.CorrelationId, msg.ReplyTo = id, replyto.Queue
	reply := r.replies.Expect(id)
	dc, err := r.ch.PublishWithDeferredConfirmWithContext(ctx, "", q, true, false, msg)
	if err != nil {
		return err
	}
	if ok, err := dc.WaitContext(ctx); err != nil || !ok {
		return errors.Join(err, errNack)
	}
	select {
	case d := <-reply:
		var ev event
		return json.Unmarshal(d.Body, &ev)
	case <-ctx.Done():
		return ctx.Err()
	}
}
