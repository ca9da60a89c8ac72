package patterns

import (
	"fmt"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

// StreamGap is a run of records a stream reader lost: it asked for offset
// First (its starting offset, or the one after the last record it handled)
// but the stream no longer held First to Last, dropped by its retention
// (x-max-age, x-max-length-bytes), so the first record it read was Last+1.
// A reader that falls behind retention is always told (this report, a
// warning in the connection's log and the acemq.stream.gap metric, counting
// the records lost), never silently moved on.
type StreamGap struct {
	// Stream is the stream read.
	Stream string
	// First and Last are the first and last offsets lost, inclusive.
	First, Last int64
}

// Lost returns how many records the reader lost.
func (g StreamGap) Lost() int64 { return g.Last - g.First + 1 }

// String describes the gap.
func (g StreamGap) String() string {
	return fmt.Sprintf("stream %q: offsets %d to %d (%d records) were dropped by retention before they were read; the first record read was %d",
		g.Stream, g.First, g.Last, g.Lost(), g.Last+1)
}

// streamGaps keeps OnStreamGap's handler on a connection.
var streamGaps = acemq.NewExtension[func(StreamGap)]("stream gap handler")

// OnStreamGap makes fn hear of every gap a stream reader of the connection
// (a generated Read<Stream>) finds, before the reader handles the record
// after it. fn runs on the reader's goroutine; a panic in it is recovered
// and logged. Default: the gap is logged and counted only.
func OnStreamGap(fn func(StreamGap)) acemq.ConnOption { return streamGaps.Option(fn) }

// ReportStreamGap tells conn's OnStreamGap handler, if it has one, of g.
func ReportStreamGap(conn *acemq.Conn, g StreamGap) {
	if fn, ok := streamGaps.Of(conn.Extensions()); ok && fn != nil {
		fn(g)
	}
}
