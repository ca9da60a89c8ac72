package acemq_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemqimpl"
)

var tenantRule = acemq.HeaderRule{Name: "x-tenant", Type: acemq.StringHeader}

func TestDeclaredHeaderTypeEnforcedOnPublish(t *testing.T) {
	conn := connect(t)
	declare(t, conn, "order.placed")
	pub := acemq.NewPublisher[Order](conn, "", "order.placed", acemqimpl.PublishHeaderRules[Order](tenantRule))
	err := pub.Send(context.Background(), Order{}, acemq.Header("x-tenant", 42))
	want := `acemq: a "order.placed" message requires the header "x-tenant" to be a string; it is an int`
	if err == nil || err.Error() != want {
		t.Fatalf("got %v, want %s", err, want)
	}
	var typed *acemq.HeaderTypeError
	if !errors.As(err, &typed) || typed.Header != "x-tenant" || typed.Type != acemq.StringHeader || typed.Value != 42 {
		t.Fatalf("errors.As gave %#v", typed)
	}
	if n := count(t, conn, "order.placed"); n != 0 {
		t.Fatalf("%d messages were sent", n)
	}
	if err := pub.Send(context.Background(), Order{}, acemq.Header("x-tenant", "acme")); err != nil {
		t.Fatalf("a string was refused: %v", err)
	}
	if err := pub.Send(context.Background(), Order{}); err != nil {
		t.Fatalf("an optional header was required: %v", err)
	}
}

func TestDeclaredHeaderTypeEnforcedOnPublishNamesEveryType(t *testing.T) {
	cases := []struct {
		rule  acemq.HeaderValueType
		value any
		want  string
	}{
		{acemq.IntHeader, "7", `to be an int; it is a string`},
		{acemq.IntHeader, int64(math.MaxInt32) + 1, `to be an int; it is an int64 out of an int's range (2147483648)`},
		{acemq.LongHeader, 1.5, `to be a long; it is a float64`},
		{acemq.LongHeader, uint64(math.MaxUint64), `to be a long; it is a uint64 out of a long's range (18446744073709551615)`},
		{acemq.BooleanHeader, "true", `to be a boolean; it is a string`},
		{acemq.DoubleHeader, 3, `to be a double; it is an int`},
		{acemq.StringHeader, nil, `to be a string; it is nil`},
	}
	for _, c := range cases {
		conn := connect(t)
		pub := acemq.NewPublisher[Order](conn, "", "orders", acemqimpl.PublishHeaderRules[Order](acemq.HeaderRule{Name: "x-h", Type: c.rule}))
		err := pub.Send(context.Background(), Order{}, acemq.Header("x-h", c.value))
		if err == nil || !strings.HasSuffix(err.Error(), `requires the header "x-h" `+c.want) {
			t.Errorf("%s header %#v: got %v, want …%s", c.rule, c.value, err, c.want)
		}
	}
}

func TestRequiredTypedHeaderIsMissingBeforeItIsMistyped(t *testing.T) {
	conn := connect(t)
	rule := acemq.HeaderRule{Name: "x-tenant", Type: acemq.StringHeader, Required: true}
	err := acemq.NewPublisher[Order](conn, "", "orders", acemqimpl.PublishHeaderRules[Order](rule)).Send(context.Background(), Order{})
	if err == nil || err.Error() != `acemq: a "orders" message requires the header "x-tenant"` {
		t.Fatalf("got %v", err)
	}
}

func TestHeaderRulesRefuseAnUnknownTypeAndAMissingName(t *testing.T) {
	conn := connect(t)
	for _, r := range []acemq.HeaderRule{{Name: "x-id", Type: "uuid"}, {Type: acemq.StringHeader}} {
		err := acemq.NewPublisher[Order](conn, "", "orders", acemqimpl.PublishHeaderRules[Order](r)).Send(context.Background(), Order{})
		if err == nil || !strings.HasPrefix(err.Error(), "acemq: ") {
			t.Errorf("publisher rule %+v: got %v", r, err)
		}
		if _, err := acemq.Consume(context.Background(), conn, "orders", func(context.Context, acemq.Message[Order]) acemq.Ack { return acemq.Accept() },
			acemqimpl.ConsumeHeaderRules(r)); err == nil {
			t.Errorf("consume rule %+v was accepted", r)
		}
		if _, err := acemq.Connect(context.Background(), brokerURL(t), acemqimpl.HeaderRulesOf[Order]("orders", r)); err == nil {
			t.Errorf("conn rule %+v was accepted", r)
		}
	}
}

func TestDeclaredHeaderTypeEnforcedOnConsume(t *testing.T) {
	conn := ordersConn(t)
	var handled recorder[string]
	consume(t, conn, "orders", func(_ context.Context, m acemq.Message[Order]) acemq.Ack {
		handled.add(m.Payload.ID)
		return acemq.Accept()
	}, acemqimpl.ConsumeHeaderRules(tenantRule))
	send(t, conn, "orders", Order{ID: "mistyped"}, acemq.Header("x-tenant", 42))
	d := awaitMessage(t, conn, "orders.dlq")
	if got, want := reasonOn(d), `the message's header "x-tenant" must be a string; it is an int32`; got != want {
		t.Fatalf("reason %q, want %q", got, want)
	}
	send(t, conn, "orders", Order{ID: "typed"}, acemq.Header("x-tenant", "acme"))
	send(t, conn, "orders", Order{ID: "without"})
	awaitLen(t, &handled, 2)
	if got := strings.Join(handled.all(), ","); got != "typed,without" {
		t.Fatalf("handled %s", got)
	}
}

func TestHeaderRulesOfEnforcesDeclaredTypesOnPublishAndConsume(t *testing.T) {
	conn := connect(t, acemqimpl.HeaderRulesOf[Order]("orders", tenantRule))
	declare(t, conn, "orders")
	err := acemq.NewPublisher[Order](conn, "", "orders").Send(context.Background(), Order{}, acemq.Header("x-tenant", true))
	if err == nil || err.Error() != `acemq: a "orders" message requires the header "x-tenant" to be a string; it is a bool` {
		t.Fatalf("publish: got %v", err)
	}
	raw := connect(t)
	consume(t, conn, "orders", func(context.Context, acemq.Message[Order]) acemq.Ack { return acemq.Accept() })
	send(t, raw, "orders", Order{ID: "o-1"}, acemq.Header("x-tenant", 1.5))
	d := awaitMessage(t, raw, "orders.dlq")
	if got, want := reasonOn(d), `an interceptor refused it: the message's header "x-tenant" must be a string; it is a float64`; got != want {
		t.Fatalf("reason %q, want %q", got, want)
	}
}

func TestHeaderIntegerWidthsFollowTheWire(t *testing.T) {
	widths := []any{int(7), int8(7), int16(7), int32(7), int64(7), uint(7), uint8(7), uint16(7), uint32(7), uint64(7)}
	for _, typ := range []acemq.HeaderValueType{acemq.IntHeader, acemq.LongHeader} {
		conn, q := connect(t), "orders-"+string(typ)
		declare(t, conn, q)
		rule := acemq.HeaderRule{Name: "x-n", Type: typ}
		var handled recorder[string]
		consume(t, conn, q, func(_ context.Context, m acemq.Message[Order]) acemq.Ack {
			handled.add(m.Payload.ID)
			return acemq.Accept()
		}, acemqimpl.ConsumeHeaderRules(rule))
		pub := acemq.NewPublisher[Order](conn, "", q, acemqimpl.PublishHeaderRules[Order](rule))
		for _, v := range widths {
			if err := pub.Send(context.Background(), Order{ID: "n"}, acemq.Header("x-n", v)); err != nil {
				t.Errorf("%s header as %T: %v", typ, v, err)
			}
		}
		awaitLen(t, &handled, len(widths))
		if n := count(t, conn, acemq.DeadLetterQueue(q)); n != 0 {
			t.Errorf("%s header: %d messages dead-lettered", typ, n)
		}
	}
}

func TestIntHeaderOutOfRangeOnTheWireIsDeadLettered(t *testing.T) {
	conn := ordersConn(t)
	consume(t, conn, "orders", func(context.Context, acemq.Message[Order]) acemq.Ack { return acemq.Accept() },
		acemqimpl.ConsumeHeaderRules(acemq.HeaderRule{Name: "x-n", Type: acemq.IntHeader}))
	send(t, conn, "orders", Order{ID: "big"}, acemq.Header("x-n", int64(1)<<40))
	d := awaitMessage(t, conn, "orders.dlq")
	if got, want := reasonOn(d), `the message's header "x-n" must be an int; it is an int64 out of an int's range (1099511627776)`; got != want {
		t.Fatalf("reason %q, want %q", got, want)
	}
}

// awaitLen waits until r holds n values, failing after a deadline.
func awaitLen[V any](t *testing.T, r *recorder[V], n int) {
	t.Helper()
	waitFor(t, "the handled messages", func() bool { return r.len() >= n })
}
