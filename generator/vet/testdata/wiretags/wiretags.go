// Package wiretags holds the wiretags analyzer's cases.
package wiretags

import (
	"context"
	"time"

	"example.com/vettest/wiretags/gen"
	"example.com/vettest/wiretags/shared"
	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/patterns"
)

type Order struct {
	OrderID string
	Total   int64 `json:"total"`
}

type Line struct {
	SKU string `json:"sku"`
	Qty int
}

type Basket struct {
	Lines []Line `json:"lines"`
}

type Embeds struct {
	Order
}

type Reply struct{ OK bool }

func reported(ctx context.Context, conn *acemq.Conn) {
	acemq.NewPublisher[Order](conn, "", "orders")                                                // want `acemq.NewPublisher\[Order\]: field Order.OrderID has no json tag, so it goes on the wire as "OrderID"`
	acemq.NewPublisher[*shared.Money](conn, "", "money")                                         // want `field Money.Cents has no json tag`
	acemq.NewPublisher[Basket](conn, "", "baskets")                                              // want `field Line.Qty has no json tag`
	acemq.NewPublisher[Embeds](conn, "", "embeds")                                               // want `field Order.OrderID has no json tag`
	_ = acemq.PublishWith[Order](acemq.JSONCodec{})                                              // want `acemq.PublishWith\[Order\]`
	acemq.Consume(ctx, conn, "orders", func(context.Context, acemq.Message[[]Order]) acemq.Ack { // want `acemq.Consume\[\[\]Order\]`
		return acemq.Accept()
	})
	patterns.Serve(ctx, conn, "rpc", func(context.Context, acemq.Message[shared.Tagged]) (Reply, error) { // want `patterns.Serve\[shared.Tagged, Reply\]: field Reply.OK`
		return Reply{}, nil
	})
}

type tagged struct {
	ID      string    `json:"id"`
	At      time.Time `json:"at"`
	Skipped string    `json:"-"`
	secret  string
}

type avroTagged struct {
	ID string `avro:"id"`
}

type selfEncoded struct{ ID string }

func (selfEncoded) MarshalJSON() ([]byte, error) { return []byte(`{}`), nil }

type embedsTagged struct {
	tagged
	Extra string `json:"extra"`
}

func notReported(ctx context.Context, conn *acemq.Conn) {
	acemq.NewPublisher[tagged](conn, "", "a")
	acemq.NewPublisher[avroTagged](conn, "", "b")
	acemq.NewPublisher[selfEncoded](conn, "", "c")
	acemq.NewPublisher[embedsTagged](conn, "", "d")
	acemq.NewPublisher[string](conn, "", "e")
	acemq.NewPublisher[map[string]any](conn, "", "f")
	acemq.NewPublisher[[]byte](conn, "", "g")
	acemq.NewPublisher[gen.Untagged](conn, "", "h")
	acemq.NewPublisher[shared.Tagged](conn, "", "i")
	acemq.Consume(ctx, conn, "j", func(context.Context, acemq.Message[tagged]) acemq.Ack { return acemq.Accept() })
	_ = tagged{secret: ""}.secret
}
