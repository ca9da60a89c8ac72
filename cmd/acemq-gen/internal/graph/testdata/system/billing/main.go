// Command billing charges placed orders.
package main

import (
	"context"
	"errors"
	"log"

	"example.com/shop/orders"
	"github.com/acemq/acemq-gen/runtime/acemq"
)

// service is the name billing consumes under.
const service = "billing"

func main() {
	ctx := context.Background()
	conn, err := acemq.Connect(ctx, "memory://billing")
	if err != nil {
		log.Fatal(err)
	}
	defer conn.Close()
	if err := run(ctx, conn); err != nil {
		log.Fatal(err)
	}
}

func run(ctx context.Context, conn *acemq.Conn) error {
	_, err1 := orders.ConsumeOrderPlaced(ctx, conn, service, handlePlaced)
	_, err2 := orders.ConsumeOrderCancelled(ctx, conn, service, func(_ context.Context, m acemq.Message[orders.OrderCancelled]) acemq.Ack {
		log.Printf("billing: order %s cancelled", m.Payload.OrderID)
		return acemq.Accept()
	})
	client := orders.NewClient(conn)
	defer client.Close()
	_, err3 := client.GetOrderStatus(ctx, orders.GetOrderStatusRequest{OrderID: "o-1"})
	return errors.Join(err1, err2, err3)
}
