package outbox

import (
	"context"
	"database/sql"
	"fmt"
	"sync"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/patterns"
)

// Checkpointed returns a stream handler that applies each record once,
// whatever the crashes: it begins a transaction on cp's database, reads
// reader's checkpoint within it, runs h with it and, when h returns Accept,
// saves the record's offset (m.Stream.Offset) and commits — h's writes and
// the position together. Any other Ack rolls both back and is returned (a
// Retry redelivers the record in place; a Reject or Park copies it aside).
// A record at or below the checkpoint (a redelivery after a crash) is
// accepted without running h; one past checkpoint+1 whose predecessors the
// reader never got is a gap, told to OnGap's function, and then applied.
// (A reader started at cp.Position reports that gap too, through
// patterns.OnStreamGap; this report names the reader, and also catches a
// reader started past its checkpoint.)
// Failing to begin, read, save or commit is a Retry. A message not read from
// a stream (its m.Stream is the zero StreamRecord: Checkpointed given to a
// queue's consumer) is parked, not taken for offset 0.
//
// Start the reader at cp.Position(ctx, reader), one record at a time (a
// stream reader's only concurrency): the checkpoint is one offset per
// reader. Reader names are the checkpoints' keys: give each reader its own.
func Checkpointed[T any](cp *Checkpoints, reader string, h func(ctx context.Context, tx *sql.Tx, m acemq.Message[T]) acemq.Ack) acemq.Handler[T] {
	r := &checkpointedReader{cp: cp, reader: reader, seen: -1}
	return func(ctx context.Context, m acemq.Message[T]) acemq.Ack {
		if ack, refused := refusal(cp.usable(), h == nil, "outbox.Checkpointed"); refused {
			return ack
		}
		if m.Stream == (acemq.StreamRecord{}) {
			return acemq.Park(acemq.Fatal(fmt.Errorf("acemq: outbox: reader %q was given a message not read from a stream (it has no offset): give Checkpointed to a stream's Read", reader)))
		}
		return r.handle(ctx, m.Queue, m.Stream.Offset, func(tx *sql.Tx) acemq.Ack { return h(ctx, tx, m) })
	}
}

// checkpointedReader is a Checkpointed handler's state: the last offset it
// was given, so that a record it rejected or parked (the checkpoint stays
// behind it) is not taken for a gap when the next one comes.
type checkpointedReader struct {
	cp     *Checkpoints
	reader string
	mu     sync.Mutex
	seen   int64
}

// handle is Checkpointed's work for the record at offset of stream.
func (r *checkpointedReader) handle(ctx context.Context, stream string, offset int64, run func(*sql.Tx) acemq.Ack) acemq.Ack {
	tx, err := r.cp.db.BeginTx(ctx, nil)
	if err != nil {
		return acemq.Retry(fmt.Errorf("acemq: outbox: cannot begin reader %q's transaction for offset %d: %w", r.reader, offset, err))
	}
	defer tx.Rollback() //nolint:errcheck // after Commit it is a no-op
	last, ok, err := r.cp.store.Last(ctx, tx, r.reader)
	if err != nil {
		return acemq.Retry(err)
	}
	if ok && offset <= last {
		return acemq.Accept()
	}
	r.checkGap(ctx, stream, offset, last, ok)
	if ack := run(tx); ack.String() != acemq.Accept().String() {
		return ack
	}
	if err := r.cp.store.Save(ctx, tx, r.reader, offset); err != nil {
		return acemq.Retry(err)
	}
	if err := tx.Commit(); err != nil {
		return acemq.Retry(fmt.Errorf("acemq: outbox: cannot commit reader %q's offset %d: %w", r.reader, offset, err))
	}
	return acemq.Accept()
}

// checkGap tells cp's OnGap function about the offsets between the
// checkpoint (last, when ok) and offset that the reader was never given.
func (r *checkpointedReader) checkGap(ctx context.Context, stream string, offset, last int64, ok bool) {
	r.mu.Lock()
	if ok {
		last = max(last, r.seen)
	} else {
		last, ok = r.seen, r.seen >= 0
	}
	r.seen = max(r.seen, offset)
	r.mu.Unlock()
	if ok && offset > last+1 && r.cp.onGap != nil {
		r.cp.onGap(ctx, r.reader, patterns.StreamGap{Stream: stream, First: last + 1, Last: offset - 1})
	}
}
