// Package ops holds what the broker operations of acemq-gen (dlq, plan)
// share: the queues a set of contracts implies and their topology, and the
// contract codecs that decode a queue's messages.
package ops
