// Package outbox is the transactional outbox and inbox on PostgreSQL
// (database/sql; the relay's LISTEN needs the pgx driver,
// github.com/jackc/pgx/v5/stdlib).
//
// Writing: Within(conn, store, tx) is a connection whose publishes are rows
// inserted into tx — every generated publisher and acemq.NewPublisher work
// on it unchanged, and the row is the final wire message (interceptors,
// codec, header rules and envelope all ran), committed or rolled back with
// the caller's business data:
//
//	tx, _ := db.BeginTx(ctx, nil)
//	// ... the business writes ...
//	err := orders.NewPublisher(outbox.Within(conn, store, tx)).PublishOrderPlaced(ctx, m)
//	tx.Commit()
//
// Relaying: a Relay (NewRelay, Run) claims committed rows with FOR UPDATE
// SKIP LOCKED, publishes them with pipelined confirms and deletes (or, with
// Retain, marks) each only after the broker confirmed it: at least once.
//
// Consuming: Once wraps a handler so that its database effects happen once
// per message id, whatever the redeliveries: the id is recorded in the
// inbox table in the handler's own transaction.
//
// Reading streams: Checkpointed wraps a stream reader's handler so that each
// record is applied once whatever the crashes: the reader's offset is saved
// in the handler's own transaction (Checkpoints, a table of one row per
// reader, or a CheckpointStore of the caller's own), and the reader resumes
// at Position:
//
//	record ──▶ BEGIN ─▶ checkpoint (FOR UPDATE) ─┬─ at or below: skip (a replay)
//	                                             └─ past it: h(tx) ─▶ save offset ─▶ COMMIT
//
//	from, _ := cp.Position(ctx, "projector")
//	c, _ := orders.ReadOrderLog(ctx, conn, from, outbox.Checkpointed(cp, "projector", h))
//
// docs/outbox.md describes the guarantees, their limits and the SQL.
package outbox
