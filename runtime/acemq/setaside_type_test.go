package acemq

import (
	"context"
	"strings"
	"testing"
)

// declaredType reports which type q was declared as on conn's broker: the
// one of the two types a redeclaration accepts.
func declaredType(t *testing.T, conn *Conn, q string) QueueType {
	t.Helper()
	ctx := context.Background()
	for _, qt := range []QueueType{QueueClassic, QueueQuorum} {
		if conn.DeclareQueue(ctx, q, OfType(qt)) == nil {
			return qt
		}
	}
	t.Fatalf("%s accepts neither classic nor quorum", q)
	return ""
}

// mustConnect connects to url with opts, closing the connection when the
// test ends.
func mustConnect(t *testing.T, url string, opts ...ConnOption) *Conn {
	t.Helper()
	conn, err := Connect(context.Background(), url, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return conn
}

func TestSetAsideQueuesOfTypeQuorumDeclaresTheDeadLetterHalfAsQuorumQueues(t *testing.T) {
	ctx := context.Background()
	url := "memory://" + t.Name()
	quorum := mustConnect(t, url, SetAsideQueuesOfType(QueueQuorum))
	if err := NewTopology().Queue("orders").DeadLetters("orders").Apply(ctx, quorum); err != nil {
		t.Fatal(err)
	}
	h := func(context.Context, Message[string]) Ack { return Accept() }
	if err := quorum.DeclareQueue(ctx, "payments"); err != nil {
		t.Fatal(err)
	}
	cons, err := Consume(ctx, quorum, "payments", h)
	if err != nil {
		t.Fatal(err)
	}
	defer cons.Close()
	plain := mustConnect(t, url)
	for _, q := range []string{"orders.dlq", "orders.parked", "payments.dlq", "payments.parked"} {
		if got := declaredType(t, plain, q); got != QueueQuorum {
			t.Errorf("%s declared %s, want quorum", q, got)
		}
	}
	if err := NewTopology().Queue("other").DeadLetters("other").Apply(ctx, plain); err != nil {
		t.Fatal(err)
	}
	if got := declaredType(t, plain, "other.dlq"); got != QueueClassic {
		t.Errorf("without the option other.dlq is %s, want the family's classic", got)
	}
}

func TestSetAsideQueuesOfTypeRefusesAStream(t *testing.T) {
	_, err := Connect(context.Background(), "memory://"+t.Name(), SetAsideQueuesOfType(QueueStream))
	if err == nil || !strings.Contains(err.Error(), "SetAsideQueuesOfType") {
		t.Fatalf("Connect = %v, want SetAsideQueuesOfType's error", err)
	}
}

// A contract's set-aside-queues key fixes the type of one queue's set-aside
// queues, through DeadLettersOfType and ConsumeSetAsideQueuesOfType, whatever
// the connection's option; Consume must declare them as the topology did.
func TestDeadLettersOfTypeFixesOneQueuesSetAsideTypeOverTheConnections(t *testing.T) {
	ctx := context.Background()
	url := "memory://" + t.Name()
	classic := mustConnect(t, url, SetAsideQueuesOfType(QueueClassic))
	topo := NewTopology().Queue("orders").DeadLettersOfType("orders", QueueQuorum).Queue("other").DeadLetters("other")
	if err := topo.Apply(ctx, classic); err != nil {
		t.Fatal(err)
	}
	h := func(context.Context, Message[string]) Ack { return Accept() }
	if _, err := Consume(ctx, classic, "orders", h); err == nil || !strings.Contains(err.Error(), "orders.dlq") {
		t.Fatalf("Consume declaring orders.dlq classic over a quorum one = %v, want the broker's refusal naming it", err)
	}
	cons, err := Consume(ctx, classic, "orders", h, consumeSetAsideQueuesOfType(QueueQuorum))
	if err != nil {
		t.Fatalf("Consume with the contract's type: %v", err)
	}
	defer cons.Close()
	for q, want := range map[string]QueueType{"orders.dlq": QueueQuorum, "orders.parked": QueueQuorum, "other.dlq": QueueClassic} {
		if got := declaredType(t, classic, q); got != want {
			t.Errorf("%s declared %s, want %s", q, got, want)
		}
	}
	if err := NewTopology().Queue("x").DeadLettersOfType("x", QueueStream).Validate(); err == nil || !strings.Contains(err.Error(), "classic or quorum") {
		t.Errorf("DeadLettersOfType(stream) validated: %v", err)
	}
	if _, err := Consume(ctx, classic, "orders", h, consumeSetAsideQueuesOfType("lazy")); err == nil {
		t.Error("consumeSetAsideQueuesOfType(lazy) was accepted")
	}
}
