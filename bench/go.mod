module github.com/acemq/acemq-gen/bench

go 1.26.0

require (
	github.com/acemq/acemq-gen v0.0.0
	github.com/rabbitmq/amqp091-go v1.16.0
)

replace github.com/acemq/acemq-gen => ../
