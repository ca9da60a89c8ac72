package patterns_test

import (
	"context"
	"fmt"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/patterns"
)

type orderPlaced struct {
	ID string `json:"id"`
}

// The seed's chain: outermost first, so the recovery sees what the timeout
// and the idempotency guard decided. The same message ID handled twice runs
// the handler once.
func ExampleChain() {
	store := patterns.NewInMemoryIdempotencyStore(time.Hour)
	handle := func(_ context.Context, m acemq.Message[orderPlaced]) acemq.Ack {
		fmt.Println("handling", m.Payload.ID)
		return acemq.Accept()
	}
	handler := patterns.Chain(handle,
		patterns.WithRecovery[orderPlaced](),
		patterns.WithTimeout[orderPlaced](10*time.Second),
		patterns.WithIdempotency[orderPlaced](store))

	m := acemq.Message[orderPlaced]{Payload: orderPlaced{ID: "o-1"}, Envelope: acemq.Envelope{ID: "m-1"}}
	fmt.Println(handler(context.Background(), m))
	fmt.Println(handler(context.Background(), m))
	// Output:
	// handling o-1
	// accept
	// accept
}
