package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"os/signal"
	"sync"
	"time"

	"github.com/acemq/acemq-gen/examples/bookstore/catalog"
	"github.com/acemq/acemq-gen/examples/bookstore/orders"
	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/avro"
	_ "github.com/acemq/acemq-gen/runtime/rabbitmq" // amqp:// and amqps:// for ACEMQ_URL
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, brokerURL()); err != nil {
		log.Fatal(err)
	}
}

// brokerURL is ACEMQ_URL, or the embedded broker when it is unset.
func brokerURL() string {
	if url := os.Getenv("ACEMQ_URL"); url != "" {
		return url
	}
	return "memory://bookstore"
}

// run wires three small services onto one connection, publishes a book, an
// order, a shipment and a cancellation, asks for an order's status, and
// returns once every message has been handled. OrderShipped travels as Avro
// framed with a schema registry's id: the registry is a connection option.
func run(ctx context.Context, url string) error {
	conn, err := acemq.Connect(ctx, url, avro.WithRegistry(avro.NewMemoryRegistry()))
	if err != nil {
		return err
	}
	defer conn.Close()
	if err := errors.Join(orders.DeclareTopology(ctx, conn), catalog.DeclareTopology(ctx, conn)); err != nil {
		return err
	}
	var handled sync.WaitGroup
	if err := subscribe(ctx, conn, &handled); err != nil {
		return err
	}
	handled.Add(5) // BookAdded, OrderPlaced, ReserveStock, OrderShipped, CancelOrder
	if err := publish(ctx, conn); err != nil {
		return err
	}
	if err := waitFor(ctx, &handled, 10*time.Second); err != nil {
		return err
	}
	return askStatus(ctx, conn)
}

// askStatus serves GetOrderStatus from the orders service and calls it twice:
// for a known order, and for one that does not exist (a declared error).
func askStatus(ctx context.Context, conn *acemq.Conn) error {
	srv, err := orders.ServeGetOrderStatus(ctx, conn, func(_ context.Context, m acemq.Message[orders.GetOrderStatusRequest]) (orders.GetOrderStatusResponse, error) {
		if m.Payload.OrderID != shippedOrder {
			return orders.GetOrderStatusResponse{}, orders.ErrNotFound
		}
		return orders.GetOrderStatusResponse{OrderID: m.Payload.OrderID, Status: orders.OrderStatusShipped}, nil
	})
	if err != nil {
		return err
	}
	defer srv.Close()
	client := orders.NewClient(conn)
	defer client.Close()
	resp, err := client.GetOrderStatus(ctx, orders.GetOrderStatusRequest{OrderID: shippedOrder})
	if err != nil {
		return err
	}
	fmt.Printf("till: order %s is %s\n", resp.OrderID, resp.Status)
	if _, err := client.GetOrderStatus(ctx, orders.GetOrderStatusRequest{OrderID: "no-such-order"}); !errors.Is(err, orders.ErrNotFound) {
		return fmt.Errorf("bookstore: asking for an unknown order gave %v, want orders.ErrNotFound", err)
	}
	fmt.Println("till: an unknown order is not found")
	return nil
}

// shippedOrder is the order the example places and ships.
const shippedOrder = "0b9f7c1e-4d2a-4f6b-9c3e-2a1d5e8f7b60"

// subscribe starts the consumers: the storefront follows the catalog, billing
// follows orders and reserves stock, the catalog serves reservations and the
// orders service serves cancellations.
func subscribe(ctx context.Context, conn *acemq.Conn, handled *sync.WaitGroup) error {
	reserve := catalog.NewPublisher(conn)
	_, err1 := catalog.ConsumeBookAdded(ctx, conn, "storefront", func(ctx context.Context, m acemq.Message[catalog.BookAdded]) acemq.Ack {
		defer handled.Done()
		fmt.Printf("storefront: %q by %s is on sale at %d pence\n", m.Payload.Title, m.Payload.Authors[0].Name, m.Payload.PriceCents)
		return acemq.Accept()
	})
	_, err2 := orders.ConsumeOrderPlaced(ctx, conn, "billing", func(ctx context.Context, m acemq.Message[orders.OrderPlaced]) acemq.Ack {
		defer handled.Done()
		fmt.Printf("billing: order %s from %v, %d pence\n", m.Payload.OrderID, m.Envelope.Headers["x-bookstore-till"], m.Payload.TotalCents)
		for _, line := range m.Payload.Lines {
			cmd := catalog.ReserveStock{Isbn: line.Isbn, OrderID: m.Payload.OrderID, Quantity: line.Quantity}
			if err := reserve.SendReserveStock(ctx, cmd, acemq.CausationID(m.Envelope.ID)); err != nil {
				return acemq.Retry(err)
			}
		}
		return acemq.Accept()
	})
	_, err3 := catalog.ConsumeReserveStock(ctx, conn, func(ctx context.Context, m acemq.Message[catalog.ReserveStock]) acemq.Ack {
		defer handled.Done()
		fmt.Printf("catalog: reserved %d of %s for order %s (schema version %d)\n", m.Payload.Quantity, m.Payload.Isbn, m.Payload.OrderID, m.Envelope.Version)
		return acemq.Accept()
	})
	_, err5 := orders.ConsumeOrderShipped(ctx, conn, "storefront", func(ctx context.Context, m acemq.Message[orders.OrderShipped]) acemq.Ack {
		defer handled.Done()
		fmt.Printf("storefront: order %s is %s with %s (%s)\n", m.Payload.OrderID, m.Payload.Status, m.Payload.Carrier, m.ContentType)
		return acemq.Accept()
	})
	_, err4 := orders.ConsumeCancelOrder(ctx, conn, func(ctx context.Context, m acemq.Message[orders.CancelOrder]) acemq.Ack {
		defer handled.Done()
		fmt.Printf("orders: cancelling %s because %q\n", m.Payload.OrderID, m.Payload.Reason)
		return acemq.Accept()
	})
	return errors.Join(err1, err2, err3, err4, err5)
}

// publish sends one message of each kind the example handles.
func publish(ctx context.Context, conn *acemq.Conn) error {
	books, shop := catalog.NewPublisher(conn), orders.NewPublisher(conn)
	book := catalog.BookAdded{Isbn: "978-0141439518", Title: "Pride and Prejudice",
		Authors: []catalog.Author{{Name: "Jane Austen"}}, PriceCents: 899, Tags: []string{"classic"}}
	order := orders.OrderPlaced{OrderID: shippedOrder, PlacedAt: time.Now().UTC(),
		Lines:      []orders.OrderLine{{Isbn: book.Isbn, Quantity: 2, PriceCents: book.PriceCents}},
		TotalCents: 2 * book.PriceCents}
	cancel := orders.CancelOrder{OrderID: order.OrderID, Reason: "changed my mind"}
	return errors.Join(
		books.PublishBookAdded(ctx, book),
		shop.PublishOrderPlaced(ctx, order, orders.HeaderXBookstoreTill("web")),
		shop.PublishOrderShipped(ctx, orders.OrderShipped{OrderID: order.OrderID, Carrier: "royal-mail", Status: orders.OrderStatusShipped}),
		shop.SendCancelOrder(ctx, cancel))
}

// waitFor waits until every expected message was handled, ctx ends or the
// timeout passes.
func waitFor(ctx context.Context, wg *sync.WaitGroup, timeout time.Duration) error {
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
		fmt.Println("bookstore: every message was handled")
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(timeout):
		return fmt.Errorf("bookstore: not every message was handled within %s", timeout)
	}
}
