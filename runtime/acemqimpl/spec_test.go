package acemqimpl_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemqimpl"
	"github.com/acemq/acemq-gen/runtime/patterns"
)

type order struct {
	ID string `json:"id"`
}

func connect(t *testing.T) *acemq.Conn {
	t.Helper()
	conn, err := acemq.Connect(context.Background(), "memory://"+t.Name()+"-"+acemq.NewUUID())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return conn
}

func eventSpec() *acemqimpl.MessageSpec[order] {
	return &acemqimpl.MessageSpec[order]{
		Exchange: "orders", RoutingKey: "order.placed",
		Codec:   acemqimpl.Static(acemq.JSONCodec{}),
		Retry:   acemq.FixedRetry(2, 10*time.Millisecond),
		Headers: []acemq.HeaderRule{{Name: "x-tenant", Type: acemq.StringHeader, Required: true}},
	}
}

func commandSpec() *acemqimpl.MessageSpec[order] {
	return &acemqimpl.MessageSpec[order]{
		Exchange: "orders", RoutingKey: "cancel.order", Queue: "orders.cancel-order",
		Codec: acemqimpl.Static(acemq.JSONCodec{}), Retry: acemq.FixedRetry(2, 10*time.Millisecond),
		Mandatory: true, Version: 3,
	}
}

func TestNotImplementedMatchesErrNotImplementedAndNamesTheMessage(t *testing.T) {
	err := acemqimpl.NotImplemented("event", "OrderPlaced")
	if !errors.Is(err, acemq.ErrNotImplemented) || err.Error() != "acemq: event OrderPlaced is not implemented" {
		t.Fatalf("got %v", err)
	}
}

func TestAnEventSpecSubscribesOnTheServicesQueueAndRefusesAnEmptyService(t *testing.T) {
	conn, s := connect(t), eventSpec()
	h := func(context.Context, acemq.Message[order]) acemq.Ack { return acemq.Accept() }
	if _, err := s.Subscribe(context.Background(), conn, "", h); err == nil {
		t.Fatal("an empty service was accepted")
	}
	if q, err := s.QueueOf("billing"); err != nil || q != "billing.order.placed" {
		t.Fatalf("QueueOf = %q, %v", q, err)
	}
	got := make(chan acemq.Message[order], 1)
	c, err := s.Subscribe(context.Background(), conn, "billing", func(_ context.Context, m acemq.Message[order]) acemq.Ack {
		got <- m
		return acemq.Accept()
	})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := s.Publisher(conn).Send(context.Background(), order{ID: "o-1"}, acemq.Header("x-tenant", "acme")); err != nil {
		t.Fatal(err)
	}
	select {
	case m := <-got:
		if m.Payload.ID != "o-1" {
			t.Fatalf("got %+v", m.Payload)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the event never arrived")
	}
}

func TestAMessageSpecsPublisherEnforcesItsHeaderRules(t *testing.T) {
	conn := connect(t)
	err := eventSpec().Publisher(conn).Send(context.Background(), order{})
	if err == nil || !strings.Contains(err.Error(), `requires the header "x-tenant"`) {
		t.Fatalf("got %v", err)
	}
}

func TestACommandSpecIsMandatoryAndOwnsItsQueue(t *testing.T) {
	conn := connect(t)
	s := commandSpec()
	if err := acemqimpl.Topology("orders").Apply(context.Background(), conn); err != nil {
		t.Fatal(err)
	}
	err := s.Publisher(conn).Send(context.Background(), order{ID: "o-1"})
	if !errors.Is(err, acemq.ErrUnroutable) {
		t.Fatalf("a command sent to nobody gave %v, want ErrUnroutable", err)
	}
	got := make(chan acemq.Message[order], 1)
	c, err := s.Consume(context.Background(), conn, func(_ context.Context, m acemq.Message[order]) acemq.Ack {
		got <- m
		return acemq.Accept()
	})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := s.Publisher(conn).Send(context.Background(), order{ID: "o-2"}); err != nil {
		t.Fatal(err)
	}
	select {
	case m := <-got:
		if m.Envelope.Version != 3 {
			t.Fatalf("schema version %d, want the spec's 3", m.Envelope.Version)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the command never arrived")
	}
}

func TestTheCallersConsumeOptionsComeAfterTheContracts(t *testing.T) {
	conn := connect(t)
	s := commandSpec()
	s.Codec = acemqimpl.Static(acemq.StringCodec{}) // cannot decode into an order
	got := make(chan string, 1)
	c, err := s.Consume(context.Background(), conn, func(_ context.Context, m acemq.Message[order]) acemq.Ack {
		got <- m.Payload.ID
		return acemq.Accept()
	}, acemq.ConsumeWith(acemq.JSONCodec{}))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := acemq.NewPublisher[order](conn, "orders", "cancel.order").Send(context.Background(), order{ID: "o-3"}); err != nil {
		t.Fatal(err)
	}
	select {
	case id := <-got:
		if id != "o-3" {
			t.Fatalf("got %q", id)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the caller's codec did not win over the contract's")
	}
}

func TestAFailingCodecBuilderFailsConsume(t *testing.T) {
	s := commandSpec()
	s.Codec = func(*acemq.Conn) (acemq.Codec, error) { return nil, errors.New("no keyring") }
	h := func(context.Context, acemq.Message[order]) acemq.Ack { return acemq.Accept() }
	if _, err := s.Consume(context.Background(), connect(t), h); err == nil || err.Error() != "no keyring" {
		t.Fatalf("got %v", err)
	}
}

func TestTopologyDeclaresTheExchangeThenWhatEachOwnedMessageAdds(t *testing.T) {
	rpc := &acemqimpl.RPCSpec[order, order]{Queue: "orders.get", Codec: acemqimpl.Static(acemq.JSONCodec{}), Timeout: time.Second}
	plan := strings.Join(acemqimpl.Topology("orders", commandSpec(), rpc).Plan(), "\n")
	for _, want := range []string{"declare exchange orders (topic", "queue orders.cancel-order ", "queue orders.get (durable, quorum",
		"bind orders -> orders.cancel-order (cancel.order)"} {
		if !strings.Contains(plan, want) {
			t.Errorf("plan lacks %q:\n%s", want, plan)
		}
	}
	if strings.Index(plan, "orders.cancel-order") > strings.Index(plan, "orders.get") {
		t.Errorf("owned messages are out of order:\n%s", plan)
	}
}

func TestAnRPCSpecServesAndItsClientCalls(t *testing.T) {
	conn := connect(t)
	notFound := patterns.NewError("NotFound")
	rpc := &acemqimpl.RPCSpec[order, order]{Queue: "orders.get", Codec: acemqimpl.Static(acemq.JSONCodec{}),
		Timeout: 5 * time.Second, Errors: []*patterns.DeclaredError{notFound}}
	r, err := rpc.Serve(context.Background(), conn, func(_ context.Context, m acemq.Message[order]) (order, error) {
		if m.Payload.ID == "" {
			return order{}, notFound
		}
		return order{ID: m.Payload.ID + "!"}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	client := rpc.Client(conn)
	defer client.Close()
	if resp, err := client.Do(context.Background(), order{ID: "o-1"}); err != nil || resp.ID != "o-1!" {
		t.Fatalf("Do = %+v, %v", resp, err)
	}
	if _, err := client.Do(context.Background(), order{}); !errors.Is(err, notFound) {
		t.Fatalf("the declared error came back as %v", err)
	}
}

func TestASpecsQueueOptionsApplyToEveryQueueItIsConsumedFrom(t *testing.T) {
	cmd, ev := commandSpec(), eventSpec()
	cmd.Queues = acemqimpl.QueueKeys{DeliveryLimit: 3}
	ev.Queues = acemqimpl.QueueKeys{DeliveryLimit: 5}
	rpc := &acemqimpl.RPCSpec[order, order]{Queue: "orders.get", Codec: acemqimpl.Static(acemq.JSONCodec{}), Timeout: time.Second,
		Queues: acemqimpl.QueueKeys{DeliveryLimit: 4}}
	plan := acemqimpl.Topology("orders", cmd, rpc).Plan()
	plan = append(plan, ev.AddTo(acemq.NewTopology().Exchange("orders", "topic"), "billing.order.placed").Plan()...)
	for queue, limit := range map[string]string{"orders.cancel-order": "3", "orders.get": "4", "billing.order.placed": "5"} {
		line := ""
		for _, l := range plan {
			if strings.HasPrefix(l, "declare queue "+queue+" ") {
				line = l
			}
		}
		if !strings.Contains(line, "quorum") || !strings.Contains(line, "x-delivery-limit") || !strings.Contains(line, limit) {
			t.Errorf("queue %s is declared as %q, want a quorum queue with x-delivery-limit %s\n%s", queue, line, limit, strings.Join(plan, "\n"))
		}
	}
	conn := connect(t)
	c, err := cmd.Consume(context.Background(), conn, func(context.Context, acemq.Message[order]) acemq.Ack { return acemq.Accept() })
	if err != nil {
		t.Fatalf("consuming a command whose queue has a delivery limit: %v", err)
	}
	_ = c.Close()
}

func TestASpecsSetAsideTypeAppliesToTheTopologyAndToItsConsumers(t *testing.T) {
	cmd := commandSpec()
	cmd.Queues.SetAside = acemq.QueueQuorum
	rpc := &acemqimpl.RPCSpec[order, order]{Queue: "orders.get", Codec: acemqimpl.Static(acemq.JSONCodec{}), Timeout: time.Second,
		Queues: acemqimpl.QueueKeys{SetAside: acemq.QueueQuorum}}
	plan := strings.Join(acemqimpl.Topology("orders", cmd, rpc).Plan(), "\n")
	for _, q := range []string{"orders.cancel-order.dlq", "orders.cancel-order.parked", "orders.get.dlq", "orders.get.parked"} {
		if !strings.Contains(plan, "declare queue "+q+" (durable, quorum)") {
			t.Errorf("%s is not a quorum queue:\n%s", q, plan)
		}
	}
	conn := connect(t)
	ctx := context.Background()
	c, err := cmd.Consume(ctx, conn, func(context.Context, acemq.Message[order]) acemq.Ack { return acemq.Accept() })
	if err != nil {
		t.Fatalf("consuming a command whose set-aside queues are quorum: %v", err)
	}
	defer c.Close()
	r, err := rpc.Serve(ctx, conn, func(context.Context, acemq.Message[order]) (order, error) { return order{}, nil })
	if err != nil {
		t.Fatalf("serving an rpc whose set-aside queues are quorum: %v", err)
	}
	defer r.Close()
	for _, q := range []string{"orders.cancel-order.dlq", "orders.get.parked"} {
		if err := conn.DeclareQueue(ctx, q, acemq.OfType(acemq.QueueClassic)); err == nil {
			t.Errorf("%s accepts a classic redeclaration; the spec made it quorum", q)
		}
	}
}
