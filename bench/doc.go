// Package bench compares acemq's RabbitMQ transport with raw amqp091-go on a
// real broker. It is a module of its own so the libraries it compares never
// reach users. Run against a local broker:
//
//	export ACEMQ_TEST_AMQP_URL=$(../scripts/broker.sh start)
//	go test -run '^$' -bench . -benchtime 20000x
//
// Every benchmark publishes 256-byte persistent messages to a durable classic
// queue and reports msg/s, with this process's CPU per message (cpu-µs/msg)
// and allocations; compare figures only within one run.
package bench
