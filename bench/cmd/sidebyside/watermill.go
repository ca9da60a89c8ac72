package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/ThreeDotsLabs/watermill"
	wmamqp "github.com/ThreeDotsLabs/watermill-amqp/v3/pkg/amqp"
	"github.com/ThreeDotsLabs/watermill/message"
)

// watermillConfig is Watermill's documented durable queue configuration
// (NewDurableQueueConfig: durable queue named after the topic, persistent
// messages, prefetch 1), on a quorum queue like every other contender's,
// with publisher confirms on and a pool of channels for the publisher.
func watermillConfig(e *env, channels int) wmamqp.Config {
	cfg := wmamqp.NewDurableQueueConfig(e.url)
	cfg.Queue.Arguments = quorumArgs
	cfg.Publish.ConfirmDelivery = true
	cfg.Publish.ChannelPoolSize = channels
	return cfg
}

// watermillMessage is event i as a Watermill message: the same JSON body.
func watermillMessage(i int) (*message.Message, error) {
	body, err := json.Marshal(newEvent(i))
	if err != nil {
		return nil, err
	}
	return message.NewMessage(watermill.NewUUID(), body), nil
}

// watermillPublish publishes n events from g goroutines, each Publish
// waiting for its confirm (ConfirmDelivery).
func watermillPublish(g int) func(context.Context, *env, int) (trial, error) {
	return func(_ context.Context, e *env, n int) (trial, error) {
		q := queueName("wm-publish")
		if err := declareQuorum(e.url, q); err != nil {
			return trial{}, err
		}
		pub, err := wmamqp.NewPublisher(watermillConfig(e, g), watermill.NopLogger{})
		if err != nil {
			deleteQueues(e.url, q)
			return trial{}, err
		}
		run := func(context.Context) error {
			return spread(n, g, func(i int) error {
				m, err := watermillMessage(i)
				if err != nil {
					return err
				}
				return pub.Publish(q, m)
			})
		}
		teardown := func() {
			_ = pub.Close()
			deleteQueues(e.url, q)
		}
		return trial{run: run, teardown: teardown}, nil
	}
}

// watermillConsume takes n events, filled by Watermill's publisher, off the
// queue with Watermill's subscriber, decoding and acking each.
func watermillConsume(_ context.Context, e *env, n int) (trial, error) {
	q := queueName("wm-consume")
	if err := declareQuorum(e.url, q); err != nil {
		return trial{}, err
	}
	pub, err := wmamqp.NewPublisher(watermillConfig(e, 16), watermill.NopLogger{})
	if err != nil {
		deleteQueues(e.url, q)
		return trial{}, err
	}
	fill := spread(n, 16, func(i int) error {
		m, err := watermillMessage(i)
		if err != nil {
			return err
		}
		return pub.Publish(q, m)
	})
	_ = pub.Close()
	if fill != nil {
		deleteQueues(e.url, q)
		return trial{}, fill
	}
	sub, err := wmamqp.NewSubscriber(watermillConfig(e, 0), watermill.NopLogger{})
	if err != nil {
		deleteQueues(e.url, q)
		return trial{}, err
	}
	run := func(ctx context.Context) error {
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		msgs, err := sub.Subscribe(ctx, q)
		if err != nil {
			return err
		}
		for got := 0; got < n; got++ {
			m, ok := <-msgs
			if !ok {
				return fmt.Errorf("the subscription closed after %d of %d", got, n)
			}
			var ev event
			if err := json.Unmarshal(m.Payload, &ev); err != nil {
				return err
			}
			m.Ack()
		}
		return nil
	}
	teardown := func() {
		_ = sub.Close()
		deleteQueues(e.url, q)
	}
	return trial{run: run, teardown: teardown}, nil
}
