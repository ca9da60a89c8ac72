package main

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/ThreeDotsLabs/watermill"
	wmamqp "github.com/ThreeDotsLabs/watermill-amqp/v3/pkg/amqp"
	wmsql "github.com/ThreeDotsLabs/watermill-sql/v4/pkg/sql"
	"github.com/ThreeDotsLabs/watermill/components/forwarder"
	"github.com/ThreeDotsLabs/watermill/message"
)

// watermillForwarder times Watermill's Forwarder draining n committed
// messages at equal durability: written beforehand by a forwarder.Publisher
// over watermill-sql/v4's publisher (DefaultPostgreSQLSchema, its own table)
// with the same JSON bodies and the family's headers as metadata; then, timed
// from the Forwarder's Run until every message was confirmed, the SQL
// subscriber (PostgreSQLOffsetsAdapter, its defaults: batches of 100) feeding
// watermill-amqp/v3's durable-queue publisher with confirms.
func watermillForwarder(ctx context.Context, e *env, n int) (trial, error) {
	db, err := e.database()
	if err != nil {
		return trial{}, err
	}
	q := queueName("wm-forward")
	if err := declareQuorum(e.url, q); err != nil {
		return trial{}, err
	}
	topic := sqlName(queueName("wmfwd")[4:])
	schema, offsets := wmsql.DefaultPostgreSQLSchema{}, wmsql.DefaultPostgreSQLOffsetsAdapter{}
	drop := func() {
		_, _ = db.Exec(`DROP TABLE IF EXISTS ` + schema.MessagesTable(topic))
		_, _ = db.Exec(`DROP TABLE IF EXISTS ` + offsets.MessagesOffsetsTable(topic))
		deleteQueues(e.url, q)
	}
	if err := fillWatermillOutbox(wmsql.BeginnerFromStdSQL(db), schema, topic, q, n); err != nil {
		drop()
		return trial{}, err
	}
	sub, err := wmsql.NewSubscriber(wmsql.BeginnerFromStdSQL(db), wmsql.SubscriberConfig{
		SchemaAdapter: schema, OffsetsAdapter: offsets}, watermill.NopLogger{})
	if err == nil {
		err = sub.SubscribeInitialize(topic)
	}
	if err != nil {
		drop()
		return trial{}, err
	}
	amqpPub, err := newWatermillAMQP(e)
	if err != nil {
		_ = sub.Close()
		drop()
		return trial{}, err
	}
	out := &countingPublisher{Publisher: amqpPub, n: int64(n), all: make(chan struct{})}
	fwd, err := forwarder.NewForwarder(sub, out, watermill.NopLogger{}, forwarder.Config{ForwarderTopic: topic})
	if err != nil {
		_ = amqpPub.Close()
		_ = sub.Close()
		drop()
		return trial{}, err
	}
	done := make(chan error, 1)
	run := func(ctx context.Context) error {
		go func() { done <- fwd.Run(context.WithoutCancel(ctx)) }()
		select {
		case <-out.all:
			return nil
		case err := <-done:
			return fmt.Errorf("the forwarder stopped after %d of %d: %v", out.sent.Load(), n, err)
		case <-ctx.Done():
			return fmt.Errorf("forwarded %d of %d: %w", out.sent.Load(), n, ctx.Err())
		}
	}
	verify := func(context.Context) error { return verifyQueue(e, q, n) }
	teardown := func() {
		_ = fwd.Close()
		_ = amqpPub.Close()
		_ = sub.Close()
		drop()
	}
	return trial{run: run, verify: verify, teardown: teardown}, nil
}

// newWatermillAMQP is Watermill's durable-queue publisher with confirms.
func newWatermillAMQP(e *env) (message.Publisher, error) {
	return wmamqp.NewPublisher(watermillConfig(e, 1), watermill.NopLogger{})
}

// fillWatermillOutbox writes n enveloped messages for queue q into topic's
// table, 1,000 per INSERT (not timed).
func fillWatermillOutbox(db wmsql.ContextExecutor, schema wmsql.SchemaAdapter, topic, q string, n int) error {
	sqlPub, err := wmsql.NewPublisher(db, wmsql.PublisherConfig{SchemaAdapter: schema, AutoInitializeSchema: true}, watermill.NopLogger{})
	if err != nil {
		return err
	}
	defer sqlPub.Close()
	pub := forwarder.NewPublisher(sqlPub, forwarder.PublisherConfig{ForwarderTopic: topic})
	batch := make([]*message.Message, 0, window)
	for done := 0; done < n; done += len(batch) {
		batch = batch[:0]
		for i := done; i < min(n, done+window); i++ {
			m, err := watermillFamilyMessage(i, q)
			if err != nil {
				return err
			}
			batch = append(batch, m)
		}
		if err := pub.Publish(q, batch...); err != nil {
			return err
		}
	}
	return nil
}

// watermillFamilyMessage is event i with the family's headers as metadata
// (what the raw contenders put on the wire, as strings).
func watermillFamilyMessage(i int, key string) (*message.Message, error) {
	raw, err := rawMessage(i, key)
	if err != nil {
		return nil, err
	}
	m := message.NewMessage(raw.MessageId, raw.Body)
	for k, v := range raw.Headers {
		m.Metadata.Set(k, fmt.Sprint(v))
	}
	return m, nil
}

// countingPublisher closes all once n publishes returned (each confirmed).
type countingPublisher struct {
	message.Publisher
	n    int64
	sent atomic.Int64
	all  chan struct{}
}

func (c *countingPublisher) Publish(topic string, msgs ...*message.Message) error {
	if err := c.Publisher.Publish(topic, msgs...); err != nil {
		return err
	}
	if c.sent.Add(int64(len(msgs))) == c.n {
		close(c.all)
	}
	return nil
}
