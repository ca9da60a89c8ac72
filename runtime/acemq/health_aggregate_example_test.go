package acemq_test

import (
	"context"
	"fmt"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// databaseCheck stands for an application's own dependency.
type databaseCheck struct{}

func (databaseCheck) Name() string { return "orders-db" }

func (databaseCheck) Check(context.Context) acemq.HealthReport {
	return acemq.HealthReport{Status: acemq.HealthDegraded, Detail: "replica lagging"}
}

// A readiness endpoint combines the broker connection with the service's own
// checks; the worst status wins.
func ExampleAggregateHealth() {
	ctx := context.Background()
	conn, err := acemq.Connect(ctx, "memory://example-aggregate-health")
	if err != nil {
		panic(err)
	}
	defer conn.Close()
	r := acemq.AggregateHealth(ctx, acemq.ConnHealth{Conn: conn}, databaseCheck{})
	fmt.Println(r.Status)
	fmt.Println(r.Detail)
	fmt.Println(r.Parts["broker"].(acemq.HealthReport).Status)
	// Output:
	// degraded
	// orders-db is degraded: replica lagging
	// up
}

// Code that needs a broker feature asks the connection before relying on it.
func ExampleConn_Supports() {
	conn, err := acemq.Connect(context.Background(), "memory://example-supports?confirms=off")
	if err != nil {
		panic(err)
	}
	defer conn.Close()
	fmt.Println(conn.Supports(driver.CapabilityPublisherConfirms), conn.Supports(driver.CapabilityDeadLettering))
	// Output: false true
}
