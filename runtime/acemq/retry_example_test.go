package acemq_test

import (
	"fmt"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

func ExampleRetryPolicy() {
	p := acemq.ExponentialRetry(6, 10*time.Second, 5*time.Minute).GiveUpAfter(time.Hour)
	fmt.Println(p)
	fmt.Println("schedule:", p.Schedule())
	fmt.Println("rungs:", p.BrokerRungs())
	fmt.Println("rung queue:", acemq.RungQueue("orders.new", p.RungFor(45*time.Second)))
	// Output:
	// exponential(6, 10s, 5m).giveUpAfter(1h)
	// schedule: [10s 20s 40s 1m20s 2m40s]
	// rungs: [40s 1m20s 2m40s]
	// rung queue: orders.new.retry.80s
}
