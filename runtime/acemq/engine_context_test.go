package acemq_test

import (
	"context"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

type ctxKey struct{}

func TestHandlerContextKeepsConsumeValuesAndOnSettledWorksThroughDerivedContexts(t *testing.T) {
	conn := ordersConn(t)
	values := make(chan any, 2)
	settled := make(chan acemq.Settlement, 4)
	ctx := context.WithValue(context.Background(), ctxKey{}, "tenant-a")
	c, err := acemq.Consume(ctx, conn, "orders", func(ctx context.Context, m acemq.Message[Order]) acemq.Ack {
		derived, cancel := context.WithTimeout(ctx, time.Minute)
		defer cancel()
		values <- derived.Value(ctxKey{})
		if !acemq.OnSettled(derived, func(s acemq.Settlement) { settled <- s }) {
			t.Error("OnSettled refused a context derived from the handler's")
		}
		return acemq.Accept()
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	send(t, conn, "orders", Order{ID: "a"})
	send(t, conn, "orders", Order{ID: "b"})
	for range 2 {
		if v := <-values; v != "tenant-a" {
			t.Errorf("the handler's context carries %v, want Consume's value", v)
		}
		if s := <-settled; s.Action != acemq.ActionAccepted {
			t.Errorf("settlement %+v", s)
		}
	}
	select {
	case s := <-settled:
		t.Fatalf("a delivery's OnSettled ran for another delivery too: %+v", s)
	default:
	}
}

func TestHandlerContextIsCancelledAtTheDrainBound(t *testing.T) {
	conn := ordersConn(t)
	started, ended := make(chan struct{}), make(chan error, 1)
	c := consume(t, conn, "orders", func(ctx context.Context, m acemq.Message[Order]) acemq.Ack {
		close(started)
		<-ctx.Done()
		ended <- ctx.Err()
		return acemq.Accept()
	}, acemq.DrainTimeout(time.Millisecond))
	send(t, conn, "orders", Order{})
	<-started
	_ = c.Close()
	if err := <-ended; err != context.Canceled {
		t.Fatalf("the handler's context ended with %v, want context.Canceled", err)
	}
}
