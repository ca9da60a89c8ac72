package acemq

import (
	"time"
)

// streamFrom is the kind of a StreamPosition.
type streamFrom uint8

const (
	streamFromNext streamFrom = iota // the zero value: only records appended from now on
	streamFromFirst
	streamFromLast
	streamFromOffset
	streamFromSince
)

// StreamPosition is where a stream reader starts: StreamFirst, StreamNext,
// StreamLast, StreamOffset or StreamSince. The zero value is StreamNext.
type StreamPosition struct {
	from   streamFrom
	offset int64
	since  time.Time
}

// StreamFirst starts at the first record the stream still holds.
func StreamFirst() StreamPosition { return StreamPosition{from: streamFromFirst} }

// StreamNext starts with the next record appended after the reader attaches.
func StreamNext() StreamPosition { return StreamPosition{from: streamFromNext} }

// StreamLast starts at the last chunk of the stream (RabbitMQ's "last").
func StreamLast() StreamPosition { return StreamPosition{from: streamFromLast} }

// StreamOffset starts at the record with offset n (offsets count from 0).
func StreamOffset(n int64) StreamPosition { return StreamPosition{from: streamFromOffset, offset: n} }

// StreamSince starts at the first record appended at or after t.
func StreamSince(t time.Time) StreamPosition { return StreamPosition{from: streamFromSince, since: t} }

// offsetArg is the position as the x-stream-offset consume argument: the
// string first, next or last, an int64 offset, or a time.Time (an AMQP
// timestamp, whole seconds).
func (p StreamPosition) offsetArg() any {
	switch p.from {
	case streamFromFirst:
		return "first"
	case streamFromLast:
		return "last"
	case streamFromOffset:
		return p.offset
	case streamFromSince:
		return p.since
	}
	return "next"
}

// StreamRecord is where a message read from a stream sits in it: its offset
// and the time it was appended (the envelope's first-seen time; the time it
// was read when its appender wrote none). It is the zero value for a message
// that was not read from a stream, and never for one that was.
type StreamRecord struct {
	Offset    int64
	Timestamp time.Time
}
