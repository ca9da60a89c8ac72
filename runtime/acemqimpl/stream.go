package acemqimpl

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
	"github.com/acemq/acemq-gen/runtime/internal/implbridge"
	"github.com/acemq/acemq-gen/runtime/patterns"
)

// StreamSpec is the contract of a stream: an append-only log, the RabbitMQ
// queue type stream, named Stream, whose records every reader can replay.
// Generated Append<Stream>, Read<Stream> and Declare<Stream> call it.
type StreamSpec[T any] struct {
	// Stream is the stream's name, which is also its queue's.
	Stream string
	// Codec builds the contract's codec for a connection.
	Codec CodecBuilder
	// Version is the payload's schema version; 0 and 1 append without one.
	Version int
	// Headers are the contract's header rules (required and typed headers).
	Headers []acemq.HeaderRule
	// MaxAge, MaxBytes and SegmentBytes are the stream's retention
	// (x-max-age, x-max-length-bytes, x-stream-max-segment-size-bytes);
	// each zero is unset.
	MaxAge                 time.Duration
	MaxBytes, SegmentBytes int64
}

// Publisher returns the stream's appender on conn: records go through the
// default exchange to the stream, mandatory, so appending to a stream that
// does not exist fails (acemq.ErrUnroutable) instead of dropping the record.
func (s *StreamSpec[T]) Publisher(conn *acemq.Conn) *acemq.Publisher[T] {
	opts := []acemq.PublisherOption[T]{PublishWithFunc[T](s.Codec), acemq.Mandatory[T]()}
	if len(s.Headers) > 0 {
		opts = append(opts, PublishHeaderRules[T](s.Headers...))
	}
	if s.Version > 1 {
		opts = append(opts, acemq.WithEnvelope[T](acemq.SchemaVersion(s.Version)))
	}
	return acemq.NewPublisher[T](conn, "", s.Stream, opts...)
}

// Declare adds the stream's queue to t (Owned): type stream, with its
// retention arguments.
func (s *StreamSpec[T]) Declare(t *acemq.Topology) *acemq.Topology {
	return t.Queue(s.Stream, s.queueOptions()...)
}

// Apply declares the stream on conn; it is idempotent.
func (s *StreamSpec[T]) Apply(ctx context.Context, conn *acemq.Conn) error {
	return s.Declare(acemq.NewTopology()).Apply(ctx, conn)
}

// queueOptions are the stream queue's type and retention arguments.
func (s *StreamSpec[T]) queueOptions() []acemq.QueueOption {
	opts := []acemq.QueueOption{acemq.OfType(acemq.QueueStream)}
	if s.MaxAge > 0 {
		opts = append(opts, acemq.QueueArg("x-max-age", StreamMaxAge(s.MaxAge)))
	}
	if s.MaxBytes > 0 {
		opts = append(opts, acemq.QueueArg("x-max-length-bytes", s.MaxBytes))
	}
	if s.SegmentBytes > 0 {
		opts = append(opts, acemq.QueueArg("x-stream-max-segment-size-bytes", s.SegmentBytes))
	}
	return opts
}

// StreamMaxAge renders d as x-max-age does (FAMILY-SPEC §1.13): in the
// largest unit that holds it exactly (7D, 3h, 90m, 45s), a remainder of
// whole seconds rounded down, at least 1s.
func StreamMaxAge(d time.Duration) string {
	units := []struct {
		d    time.Duration
		name string
	}{{24 * time.Hour, "D"}, {time.Hour, "h"}, {time.Minute, "m"}}
	for _, u := range units {
		if d%u.d == 0 {
			return strconv.FormatInt(int64(d/u.d), 10) + u.name
		}
	}
	return strconv.FormatInt(max(int64(d/time.Second), 1), 10) + "s"
}

// ErrStreamsUnsupported is Read's error on a transport that does not report
// driver.CapabilityStreams (memory:// and RabbitMQ do).
var ErrStreamsUnsupported = errors.New("acemq: this transport does not support streams (driver.CapabilityStreams)")

// Read starts a reader of the stream from position from, delivering each
// record to h, in order, with m.Stream set (its offset, and its append time:
// the envelope's first-seen time, as RabbitMQ 3.10 sends no record time).
// Retry (and InProgress) runs h again on the same record after the retry
// policy's wait; Reject and Park copy the record to {stream}.dlq and
// {stream}.parked (declared by Read) with the family's reason and move on;
// a record it cannot copy is tried again. A reader that asked for records
// retention dropped reports the gap (patterns.OnStreamGap, a warning, the
// acemq.stream.gap metric) before the next record. After a reconnection the
// reader resumes at the record after the last one it handled. The prefetch
// is 10 unless Prefetch says otherwise (Prefetch(0) is 10 too: RabbitMQ
// refuses a stream consumer without one); Concurrency other than 1 is
// refused. On a transport without driver.CapabilityStreams it fails with
// ErrStreamsUnsupported.
func (s *StreamSpec[T]) Read(ctx context.Context, conn *acemq.Conn, from acemq.StreamPosition, h acemq.Handler[T],
	opts ...acemq.ConsumeOption) (*acemq.Consumer, error) {
	if !conn.Supports(driver.CapabilityStreams) {
		return nil, fmt.Errorf("acemq: cannot read stream %q: %w", s.Stream, ErrStreamsUnsupported)
	}
	onGap := func(first, last int64) {
		patterns.ReportStreamGap(conn, patterns.StreamGap{Stream: s.Stream, First: first, Last: last})
	}
	base := []acemq.ConsumeOption{implbridge.ConsumeStream(from, onGap).(acemq.ConsumeOption), ConsumeWithFunc(conn, s.Codec)}
	if len(s.Headers) > 0 {
		base = append(base, ConsumeHeaderRules(s.Headers...))
	}
	return acemq.Consume(ctx, conn, s.Stream, h, append(base, opts...)...)
}
