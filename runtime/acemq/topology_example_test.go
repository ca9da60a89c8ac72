package acemq_test

import (
	"fmt"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

func ExampleTopology() {
	t := acemq.NewTopology().
		Exchange("orders", "topic").
		Queue("orders.new").
		Binding("orders.new", "orders", "order.*").
		DeadLetters("orders.new")
	if err := t.Validate(); err != nil {
		fmt.Println(err)
	}
	fmt.Println(t)
	// Output:
	// Topology: 2 exchanges, 3 queues, 3 bindings
	//   declare exchange orders (topic, durable)
	//   declare exchange acemq.dlx (direct, durable)
	//   declare queue orders.new (durable, quorum, x-dead-letter-exchange=acemq.dlx, x-dead-letter-routing-key=orders.new.dlq)
	//   declare queue orders.new.dlq (durable, classic)
	//   declare queue orders.new.parked (durable, classic)
	//   bind orders -> orders.new (order.*)
	//   bind acemq.dlx -> orders.new.dlq (orders.new.dlq)
	//   bind acemq.dlx -> orders.new.parked (orders.new.parked)
}
