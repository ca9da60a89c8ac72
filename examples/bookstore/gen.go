// Command bookstore is a small example service: an orders domain and a catalog
// domain, generated from contracts/ by acemq-gen, exchanging typed events and
// commands on the embedded memory:// broker (or RabbitMQ when ACEMQ_URL is set).
package main

//go:generate go run github.com/acemq/acemq-gen/cmd/acemq-gen generate -o . ./contracts
