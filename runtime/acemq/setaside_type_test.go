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

func TestSetAsideQueuesOfTypeQuorumDeclaresTheDeadLetterHalfAsQuorumQueues(t *testing.T) {
	ctx := context.Background()
	url := "memory://" + t.Name()
	quorum, err := Connect(ctx, url, SetAsideQueuesOfType(QueueQuorum))
	if err != nil {
		t.Fatal(err)
	}
	defer quorum.Close()
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
	plain, err := Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
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
