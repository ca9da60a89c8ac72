// Package ops holds what the operations of acemq-gen share: the queues a
// set of contracts implies and their topology, the contract codecs that
// decode a queue's messages, the broker connection, and the exit codes and
// printing helpers of every command.
package ops
