package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"

	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemqimpl"
	"github.com/acemq/acemq-gen/runtime/outbox"
)

// checkpointEvery is how many records a stream reader handles between two
// checkpoints; streamPrefetch is every stream reader's prefetch.
const (
	checkpointEvery = 1000
	streamPrefetch  = window
)

// streamSpec is a generated stream's contract for a fresh stream of events.
func streamSpec() *acemqimpl.StreamSpec[event] {
	return &acemqimpl.StreamSpec[event]{Stream: queueName("stream-read"),
		Codec: acemqimpl.Static(acemq.JSONCodec{})}
}

// filledStream declares a fresh stream and appends n events to it with the
// stream's appender (not timed); teardown closes conn and deletes it.
func filledStream(ctx context.Context, e *env, n int) (*acemq.Conn, *acemqimpl.StreamSpec[event], func(), error) {
	conn, err := acemq.Connect(ctx, e.url)
	if err != nil {
		return nil, nil, nil, err
	}
	spec := streamSpec()
	teardown := func() { _ = conn.Close(); deleteQueues(e.url, spec.Stream) }
	if err := spec.Apply(ctx, conn); err != nil {
		teardown()
		return nil, nil, nil, err
	}
	if err := sendAllEvents(ctx, spec.Publisher(conn), n); err != nil {
		teardown()
		return nil, nil, nil, err
	}
	return conn, spec, teardown, nil
}

// checkpointTable creates the bench's checkpoints table; saveCheckpoint
// upserts a reader's offset in it, what both batch-checkpointing contenders do.
func checkpointTable(ctx context.Context, db *sql.DB) error {
	_, err := db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS sbs_stream_checkpoints (reader text PRIMARY KEY, last_offset bigint NOT NULL)`)
	return err
}

func saveCheckpoint(ctx context.Context, db *sql.DB, reader string, offset int64) error {
	_, err := db.ExecContext(ctx, `INSERT INTO sbs_stream_checkpoints VALUES ($1, $2)
ON CONFLICT (reader) DO UPDATE SET last_offset = EXCLUDED.last_offset`, reader, offset)
	return err
}

// streamSetup is what every stream-read contender starts from: a filled
// stream and the database with the checkpoints table.
func streamSetup(ctx context.Context, e *env, n int) (*acemq.Conn, *acemqimpl.StreamSpec[event], *sql.DB, func(), error) {
	db, err := e.database()
	if err == nil {
		err = checkpointTable(ctx, db)
	}
	if err != nil {
		return nil, nil, nil, nil, err
	}
	conn, spec, teardown, err := filledStream(ctx, e, n)
	return conn, spec, db, teardown, err
}

// rawStreamRead reads the n records of a filled stream with amqp091-go:
// x-stream-offset first, prefetch streamPrefetch, manual acks, the body
// JSON-decoded and the x-stream-offset header read, the offset upserted
// every 1,000 records.
func rawStreamRead(ctx context.Context, e *env, n int) (trial, error) {
	_, spec, db, teardown, err := streamSetup(ctx, e, n)
	if err != nil {
		return trial{}, err
	}
	rc, err := amqp.Dial(e.url)
	if err != nil {
		teardown()
		return trial{}, err
	}
	run := func(ctx context.Context) error {
		ch, deliveries, err := rawDeliveries(ctx, rc, spec.Stream, streamPrefetch, amqp.Table{"x-stream-offset": "first"})
		if err != nil {
			return err
		}
		defer ch.Close()
		return rawReadN(ctx, db, spec.Stream, deliveries, n)
	}
	return trial{run: run, teardown: func() { _ = rc.Close(); teardown() }}, nil
}

// rawReadN handles n deliveries as rawStreamRead says.
func rawReadN(ctx context.Context, db *sql.DB, reader string, deliveries <-chan amqp.Delivery, n int) error {
	for got := 1; got <= n; got++ {
		d, ok := <-deliveries
		if !ok {
			return fmt.Errorf("the delivery channel closed after %d of %d", got-1, n)
		}
		var ev event
		if err := json.Unmarshal(d.Body, &ev); err != nil {
			return err
		}
		offset, ok := d.Headers["x-stream-offset"].(int64)
		if !ok {
			return fmt.Errorf("record %d has no x-stream-offset", got)
		}
		if got%checkpointEvery == 0 {
			if err := saveCheckpoint(ctx, db, reader, offset); err != nil {
				return err
			}
		}
		if err := d.Ack(false); err != nil {
			return err
		}
	}
	return nil
}

// acemqStreamRead reads the n records of a filled stream as a generated
// Read<Stream> does (StreamSpec.Read from StreamFirst), the handler
// upserting the offset every 1,000 records.
func acemqStreamRead(ctx context.Context, e *env, n int) (trial, error) {
	conn, spec, db, teardown, err := streamSetup(ctx, e, n)
	if err != nil {
		return trial{}, err
	}
	var got atomic.Int64
	h := func(ctx context.Context, m acemq.Message[event]) acemq.Ack {
		if got.Add(1)%checkpointEvery == 0 {
			if err := saveCheckpoint(ctx, db, spec.Stream, m.Stream.Offset); err != nil {
				return acemq.Retry(err)
			}
		}
		return acemq.Accept()
	}
	return trial{run: readUntil(conn, spec, &got, n, h), teardown: teardown}, nil
}

// acemqCheckpointedRead is acemqStreamRead with outbox.Checkpointed: every
// record in a transaction of its own with its checkpoint (the exactly-once
// reader, for comparison; it checkpoints every record).
func acemqCheckpointedRead(ctx context.Context, e *env, n int) (trial, error) {
	conn, spec, db, teardown, err := streamSetup(ctx, e, n)
	if err != nil {
		return trial{}, err
	}
	cp := outbox.NewCheckpoints(db, outbox.Table("sbs_checkpointed"))
	if err := cp.Migrate(ctx); err != nil {
		teardown()
		return trial{}, err
	}
	var got atomic.Int64
	h := outbox.Checkpointed(cp, spec.Stream, func(context.Context, *sql.Tx, acemq.Message[event]) acemq.Ack {
		got.Add(1)
		return acemq.Accept()
	})
	return trial{run: readUntil(conn, spec, &got, n, h), teardown: teardown}, nil
}

// readUntil is a run reading spec's stream from first with h until got is n.
func readUntil(conn *acemq.Conn, spec *acemqimpl.StreamSpec[event], got *atomic.Int64, n int, h acemq.Handler[event]) func(context.Context) error {
	return func(ctx context.Context) error {
		done := make(chan struct{})
		var finish sync.Once
		c, err := spec.Read(ctx, conn, acemq.StreamFirst(), func(ctx context.Context, m acemq.Message[event]) acemq.Ack {
			ack := h(ctx, m)
			if m.Stream.Offset == int64(n-1) && ack.String() == "accept" {
				finish.Do(func() { close(done) })
			}
			return ack
		}, acemq.Prefetch(streamPrefetch))
		if err != nil {
			return err
		}
		defer c.Close()
		return awaitDone(ctx, done, "read", got, n)
	}
}
