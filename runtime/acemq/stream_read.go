package acemq

import (
	"errors"
	"fmt"
	"maps"
	"sync/atomic"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq/driver"
	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
	"github.com/acemq/acemq-gen/runtime/internal/headerval"
)

// defaultStreamPrefetch is a stream reader's prefetch unless Prefetch says
// otherwise (the family's Go default; RabbitMQ refuses a stream consumer
// without one).
const defaultStreamPrefetch = 10

// argStreamOffset is the consume argument that positions a stream consumer,
// and the header RabbitMQ writes each record's offset in.
const argStreamOffset = "x-stream-offset"

// streamReader is what reading a stream (acemqimpl.StreamSpec.Read) adds to
// a consumer: where it starts, the offset it expects next (-1 until it knows
// one) and whom it tells of records lost to retention.
type streamReader struct {
	from  StreamPosition
	next  atomic.Int64
	onGap func(first, last int64)
}

// consumeStream (acemqimpl's StreamSpec.Read, through implbridge) makes the
// consumer a stream reader starting at from; onGap, when not nil, is told of
// each run of offsets the reader lost to retention.
func consumeStream(from StreamPosition, onGap func(first, last int64)) ConsumeOption {
	return func(cfg *consumeConfig) error {
		if err := from.check(); err != nil {
			return err
		}
		r := &streamReader{from: from, onGap: onGap}
		r.next.Store(-1)
		if from.from == streamFromOffset {
			r.next.Store(from.offset)
		}
		cfg.stream, cfg.prefetch = r, defaultStreamPrefetch
		return nil
	}
}

// check refuses a position the broker would misread: a negative offset, or
// a time before 1970 (the zero time.Time, say), which AMQP's unsigned
// timestamp turns into one far in the future — a reader that reads nothing.
func (p StreamPosition) check() error {
	switch {
	case p.from == streamFromOffset && p.offset < 0:
		return fmt.Errorf("acemq: StreamOffset(%d): a stream's offsets count from 0", p.offset)
	case p.from == streamFromSince && p.since.Unix() < 0:
		return fmt.Errorf("acemq: StreamSince(%s): a stream's records are timed from 1970 on (is it the zero time?)", p.since.UTC().Format(time.RFC3339))
	}
	return nil
}

// errStreamConcurrency refuses a stream reader handling records out of order.
var errStreamConcurrency = errors.New("acemq: a stream reader handles its records in order; Concurrency must be 1")

// finishStream applies a stream reader's rules over the options: records in
// order, a prefetch (0 is the default 10) and retries in place, never on a
// broker rung (a stream has no requeue).
func (cfg *consumeConfig) finishStream() error {
	if cfg.stream == nil {
		return nil
	}
	if cfg.concurrency != 1 {
		return errStreamConcurrency
	}
	if cfg.prefetch == 0 {
		cfg.prefetch = defaultStreamPrefetch
	}
	if cfg.retry.IsZero() {
		cfg.retry = DefaultRetryPolicy()
	}
	cfg.retry.BrokerWaitThreshold = 0
	return nil
}

// args returns base with x-stream-offset: the offset after the last record
// handled once there is one (a reader consuming again after a reconnection
// resumes there), else the reader's starting position.
func (r *streamReader) args(base map[string]any) map[string]any {
	args := maps.Clone(base)
	if args == nil {
		args = map[string]any{}
	}
	if n := r.next.Load(); n >= 0 {
		args[argStreamOffset] = n
	} else {
		args[argStreamOffset] = r.from.offsetArg()
	}
	return args
}

// streamSpec completes spec for a stream reader: its position now and on
// every resubscription.
func (c *Consumer) streamSpec(spec driver.ConsumeSpec) driver.ConsumeSpec {
	r := c.cfg.stream
	if r == nil {
		return spec
	}
	spec.Args = r.args(c.cfg.args)
	spec.ResumeArgs = func() map[string]any { return r.args(c.cfg.args) }
	return spec
}

// recordOffset reads a stream delivery's x-stream-offset header.
func recordOffset(d driver.Delivery) (int64, bool) {
	return headerval.Millis(d.Headers, argStreamOffset)
}

// admit reports whether the record at offset is to be handled: one before
// the offset expected was handled already (RabbitMQ starts at the chunk
// holding the offset asked for; a reader consuming again may be sent records
// it still had queued). One past it means the records between were lost to
// retention, which is reported first.
func (c *Consumer) admit(offset int64) bool {
	next := c.cfg.stream.next.Load()
	switch {
	case next < 0 || offset == next:
		return true
	case offset < next:
		return false
	}
	c.reportGap(next, offset-1)
	return true
}

// reportGap tells the log, the observer and the reader's gap handler that
// offsets first to last were lost to the reader.
func (c *Consumer) reportGap(first, last int64) {
	c.conn.cfg.logger.Warn("acemq: a stream reader fell behind the stream's retention; records it never read are gone",
		"stream", c.queue, "first_lost", first, "last_lost", last, "lost", last-first+1)
	c.conn.cfg.observer.Count(semconv.MetricStreamGap, last-first+1, semconv.Labels{semconv.LabelQueue: c.queue})
	if fn := c.cfg.stream.onGap; fn != nil {
		runHook(c.handlerCtx, c.conn.cfg.logger, "stream gap", func() { fn(first, last) })
	}
}

// handleRecord runs one stream record through the engine, in place: Retry
// (and InProgress) runs the handler again on the same record after the
// policy's wait; Reject and Park copy it to {stream}.dlq or .parked; a copy
// that cannot be made is tried again. A record is only ever acked:
// RabbitMQ closes the connection on a nack of a stream record. A reader
// stopping before the record is done leaves it unacked and unhandled.
func (c *Consumer) handleRecord(d driver.Delivery) {
	offset, ok := recordOffset(d)
	if !ok {
		c.parkUnplaced(d)
		return
	}
	if !c.admit(offset) {
		c.ackRecord(d, offset)
		return
	}
	var at time.Time // the record's time, the same on every attempt
	for attempt := 0; ; {
		f := c.newInFlight(d)
		if attempt > 0 {
			f.env.Attempt = attempt
		}
		if at.IsZero() {
			at = recordTime(f.env)
		}
		f.cc.stream = StreamRecord{Offset: offset, Timestamp: at}
		p := c.plan(f, d, &f.cc)
		if p.action == ActionRetried || p.action == ActionInProgress {
			if !c.retryInPlace(f, p) {
				return
			}
			attempt = p.env.Attempt
			continue
		}
		if c.settle(f, d, &f.cc, &f.slot, p) == settleAck {
			c.recordDone(d, offset)
			return
		}
		if c.isStopping() {
			return
		}
	}
}

// retryInPlace reports the retry and waits the policy's delay; false when
// the reader stopped meanwhile.
func (c *Consumer) retryInPlace(f *inFlight, p plan) bool {
	p.target = ""
	c.announce(f, &f.cc, &f.slot, p)
	return c.wait(p.wait)
}

// recordDone acks the record and moves the reader past it.
func (c *Consumer) recordDone(d driver.Delivery, offset int64) {
	c.cfg.stream.next.Store(offset + 1)
	c.ackRecord(d, offset)
}

// recordTime is a record's StreamRecord.Timestamp: the envelope's first-seen
// time, or the time it is read when its appender wrote none (so that a
// record's StreamRecord is never the zero value, which means "not read from
// a stream").
func recordTime(env Envelope) time.Time {
	if env.FirstSeen.IsZero() {
		return nowMillis()
	}
	return env.FirstSeen
}

// reasonNoOffset is why a stream reader parks a delivery without
// x-stream-offset: it was not read from a stream (Read of a classic or
// quorum queue), so the reader has no position to keep past it.
const reasonNoOffset = "not a stream record: it has no x-stream-offset (is the queue a stream? declare it with x-queue-type stream)"

// parkUnplaced sets a delivery without an offset aside to {queue}.parked
// with reasonNoOffset, logged as an error, instead of handling it as offset
// 0 (a checkpointed reader would take every later one for a redelivery).
func (c *Consumer) parkUnplaced(d driver.Delivery) {
	c.conn.cfg.logger.Error("acemq: a stream reader was given a record without an offset; parking it",
		"queue", c.queue, "reason", reasonNoOffset)
	for {
		f := c.newInFlight(d)
		p := c.setAside(f.env, ParkedQueue(c.queue), ActionParked, semconv.OutcomeParked, reasonNoOffset)
		if c.settle(f, d, &f.cc, &f.slot, p) == settleAck || c.isStopping() {
			return
		}
	}
}

// ackRecord acks a stream delivery (the broker's credit); a failure (the
// channel closed by a reconnection) is logged, the position is the reader's.
func (c *Consumer) ackRecord(d driver.Delivery, offset int64) {
	if err := d.Ack(); err != nil {
		c.conn.cfg.logger.Debug("acemq: cannot ack a stream record", "stream", c.queue, "offset", offset, "error", err)
	}
}
