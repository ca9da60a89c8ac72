// Command shop publishes the orders domain's events and serves its RPC.
package main

import (
	"context"
	"errors"
	"log"

	"example.com/shop/orders"
	"github.com/acemq/acemq-gen/runtime/acemq"
)

func main() {
	ctx := context.Background()
	conn, err := acemq.Connect(ctx, "memory://shop")
	if err != nil {
		log.Fatal(err)
	}
	defer conn.Close()
	if err := run(ctx, conn); err != nil {
		log.Fatal(err)
	}
}

func run(ctx context.Context, conn *acemq.Conn) error {
	srv, err := orders.ServeGetOrderStatus(ctx, conn, status)
	if err != nil {
		return err
	}
	defer srv.Close()
	pub := orders.NewPublisher(conn)
	return errors.Join(
		pub.PublishOrderPlaced(ctx, orders.OrderPlaced{OrderID: "o-1", TotalCents: 1200}),
		pub.PublishOrderShipped(ctx, orders.OrderShipped{OrderID: "o-1", Carrier: "post"}),
		pub.PublishOrderRefunded(ctx, orders.OrderRefunded{OrderID: "o-1", AmountCents: 200}))
}

func status(_ context.Context, m acemq.Message[orders.GetOrderStatusRequest]) (orders.GetOrderStatusResponse, error) {
	return orders.GetOrderStatusResponse{Status: "placed " + m.Payload.OrderID}, nil
}
