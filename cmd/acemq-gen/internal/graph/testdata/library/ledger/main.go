// Command ledger books placed orders through a library module.
package main

import (
	"context"
	"log"

	"example.com/lib"
	"example.com/shop/orders"
	"github.com/acemq/acemq-gen/runtime/acemq"
)

func main() {
	ctx := context.Background()
	conn, err := acemq.Connect(ctx, "memory://ledger")
	if err != nil {
		log.Fatal(err)
	}
	defer conn.Close()
	_, err = orders.ConsumeOrderPlaced(ctx, conn, "ledger", func(_ context.Context, m acemq.Message[orders.OrderPlaced]) acemq.Ack {
		log.Printf("ledger: %d", lib.Total(m.Payload))
		return acemq.Accept()
	})
	if err != nil {
		log.Fatal(err)
	}
}
