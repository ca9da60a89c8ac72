package patterns_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/patterns"
)

type quoteRequest struct {
	SKU string `json:"sku"`
}

type quote struct {
	Cents int64 `json:"cents"`
}

var errUnknownSKU = patterns.NewError("UnknownSku")

func Example() {
	ctx := context.Background()
	conn, _ := acemq.Connect(ctx, "memory://example-rpc")
	defer conn.Close()
	_ = conn.DeclareQueue(ctx, "pricing.quote")

	responder, _ := patterns.Serve(ctx, conn, "pricing.quote",
		func(_ context.Context, m acemq.Message[quoteRequest]) (quote, error) {
			if m.Payload.SKU != "book-1" {
				return quote{}, errUnknownSKU
			}
			return quote{Cents: 1299}, nil
		})
	defer responder.Close()

	client := patterns.NewClient[quoteRequest, quote](conn, "", "pricing.quote",
		patterns.Timeout(5*time.Second), patterns.DeclaredErrors(errUnknownSKU))
	defer client.Close()

	q, err := client.Do(ctx, quoteRequest{SKU: "book-1"})
	fmt.Println(q.Cents, err)
	_, err = client.Do(ctx, quoteRequest{SKU: "pen-9"})
	fmt.Println(errors.Is(err, errUnknownSKU), err)
	// Output:
	// 1299 <nil>
	// true acemq: unknown sku (UnknownSku)
}
