// Package amqpvalue holds the AMQP value rules the transports share: which Go
// values a header or argument table can carry and in what form (integer
// widths, lists, nested and named tables, times), and what a per-message
// expiration may be. The memory broker (runtime/acemq/internal/memq) and the
// RabbitMQ transport (runtime/rabbitmq) both convert through it, so the two
// refuse the same values with the same words.
//
// It imports only the standard library.
package amqpvalue
