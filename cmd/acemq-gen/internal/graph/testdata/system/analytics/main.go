// Command analytics archives every shipment as JSON.
package main

import (
	"context"
	"encoding/json"
	"log"
	"os"

	"example.com/shop/orders"
	"github.com/acemq/acemq-gen/runtime/acemq"
)

func main() {
	ctx := context.Background()
	conn, err := acemq.Connect(ctx, "memory://analytics")
	if err != nil {
		log.Fatal(err)
	}
	defer conn.Close()
	if _, err := orders.ConsumeOrderShipped(ctx, conn, "analytics", archive); err != nil {
		log.Fatal(err)
	}
	<-ctx.Done()
}

func archive(_ context.Context, m acemq.Message[orders.OrderShipped]) acemq.Ack {
	b, err := json.Marshal(m.Payload)
	if err != nil {
		return acemq.Reject(err)
	}
	os.Stdout.Write(append(b, '\n'))
	return acemq.Accept()
}
