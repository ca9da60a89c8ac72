package acemqimpl_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
	"github.com/acemq/acemq-gen/runtime/acemqimpl"
	"github.com/acemq/acemq-gen/runtime/patterns"
)

// Issue 23 item 12, through the path generated clients take (RPCSpec.Client
// with the contract's Errors): a responder that fails as the family's Python
// one does — JSON null, acemq-error "NotFound: <text>", no acemq-error-code —
// reaches the caller as the declared error.
func TestAnRPCSpecsClientTakesAFamilyClassAndTextFailureAsTheDeclaredError(t *testing.T) {
	conn := connect(t)
	notFound := patterns.NewError("NotFound")
	rpc := &acemqimpl.RPCSpec[order, order]{Queue: "orders.get", Codec: acemqimpl.Static(acemq.JSONCodec{}),
		Timeout: 5 * time.Second, Errors: []*patterns.DeclaredError{notFound}}
	ctx := context.Background()
	if err := rpc.Declare(acemq.NewTopology()).Apply(ctx, conn); err != nil {
		t.Fatal(err)
	}
	sub, err := conn.Transport().Consume(ctx, rpc.Queue, driver.ConsumeSpec{Prefetch: 1}, func(d driver.Delivery) {
		_ = d.Ack()
		to, _ := d.Headers[patterns.HeaderReplyTo].(string)
		headers := map[string]any{semconv.HeaderCorrelation: d.Headers[semconv.HeaderCorrelation],
			patterns.HeaderError: "NotFound: order o-1 is not here"}
		out := driver.Outbound{MessageID: acemq.NewUUID(), ContentType: "application/json", Body: []byte("null"), Headers: headers}
		_, _ = conn.PublishRaw(ctx, "", to, out)
	})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	client := rpc.Client(conn)
	defer client.Close()
	if _, err := client.Do(ctx, order{ID: "o-1"}); err != notFound || !errors.Is(err, notFound) {
		t.Fatalf("the family's NotFound came back as %v", err)
	}
}
