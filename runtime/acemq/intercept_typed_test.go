package acemq_test

import (
	"context"
	"errors"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemqimpl"
)

type Refund struct {
	ID string `json:"id"`
}

func TestInterceptPublishChangesToTheTypedPayloadAreWhatIsPublished(t *testing.T) {
	conn := connect(t, acemqimpl.InterceptPublish(func(_ context.Context, _ *acemq.PublishContext, m *Order) error {
		m.Total = 42
		return nil
	}))
	declare(t, conn, "orders")
	send(t, conn, "orders", Order{ID: "o-1"})
	if d := awaitMessage(t, conn, "orders"); string(d.Body) != `{"id":"o-1","total":42}` {
		t.Fatalf("body %s", d.Body)
	}
}

func TestInterceptPublishRunsOnlyForItsType(t *testing.T) {
	var calls recorder[string]
	conn := connect(t, acemqimpl.InterceptPublish(func(_ context.Context, _ *acemq.PublishContext, m *Order) error {
		calls.add(m.ID)
		return nil
	}))
	declare(t, conn, "refunds")
	if err := acemq.NewPublisher[Refund](conn, "", "refunds").Send(context.Background(), Refund{ID: "r"}); err != nil {
		t.Fatal(err)
	}
	if calls.len() != 0 {
		t.Fatalf("the Order interceptor ran for a Refund: %v", calls.all())
	}
}

func TestInterceptPublishRefusalIsReturnedUnwrapped(t *testing.T) {
	refused := errors.New("over the limit")
	conn := connect(t, acemqimpl.InterceptPublish(func(context.Context, *acemq.PublishContext, *Order) error { return refused }))
	err := acemq.NewPublisher[Order](conn, "", "orders").Send(context.Background(), Order{})
	if err != refused {
		t.Fatalf("got %v, want the refusal itself", err)
	}
}

func TestInterceptPublishRefusesANilFunction(t *testing.T) {
	var fn func(context.Context, *acemq.PublishContext, *Order) error
	_, err := acemq.Connect(context.Background(), brokerURL(t), acemqimpl.InterceptPublish(fn))
	if err == nil || err.Error() != "acemq: the interceptor is nil" {
		t.Fatalf("got %v", err)
	}
}
