package acemq_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

// OrderPlaced is the example's event.
type OrderPlaced struct {
	OrderID string `json:"orderId"`
}

func Example() {
	ctx := context.Background()
	conn, err := acemq.Connect(ctx, "memory://example",
		acemq.WithRetry(acemq.NoRetry()),
		acemq.WithPublishInterceptor(func(_ context.Context, c *acemq.PublishContext) error {
			c.SetHeader("x-tenant", "acme")
			return nil
		}))
	if err != nil {
		panic(err)
	}
	defer conn.Close()
	_ = conn.DeclareQueue(ctx, "billing")

	done := make(chan acemq.Settlement, 2)
	_, err = acemq.Consume(ctx, conn, "billing", func(ctx context.Context, m acemq.Message[OrderPlaced]) acemq.Ack {
		acemq.OnSettled(ctx, func(s acemq.Settlement) { done <- s })
		if m.Payload.OrderID == "o-2" {
			return acemq.Reject(errors.New("unknown customer"))
		}
		fmt.Println("billing", m.Payload.OrderID, "for", m.Envelope.Headers["x-tenant"])
		return acemq.Accept()
	})
	if err != nil {
		panic(err)
	}
	pub := acemq.NewPublisher[OrderPlaced](conn, "", "billing")
	_ = pub.Send(ctx, OrderPlaced{OrderID: "o-1"})
	fmt.Println((<-done).Outcome)
	_ = pub.Send(ctx, OrderPlaced{OrderID: "o-2"})
	s := <-done
	fmt.Println(s.Outcome, "-", s.Reason)
	// Output:
	// billing o-1 for acme
	// acked
	// rejected - the handler rejected it: unknown customer
}
