// Package amqpvalue holds the AMQP value rules the transports share: which Go
// values a header or argument table can carry and in what form (integer
// widths, lists, nested and named tables, times), and what a per-message
// expiration may be. The memory broker (runtime/acemq/internal/memq) and the
// RabbitMQ transport (runtime/rabbitmq) both convert through it, so the two
// refuse the same values with the same words. It also checks an encoded
// field table against the limits amqp091-go reads within (CheckTable:
// MaxTableDepth, MaxTableEntries, known field types, lengths inside the
// table), without allocating, and sizes a table as a client writes it
// (TableSize, EntrySize, FieldSize).
//
// It imports only the standard library.
package amqpvalue
