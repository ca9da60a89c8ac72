package rabbitmq

import (
	"context"
	"strings"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemqimpl"
)

// A contract's set-aside-queues: quorum on RabbitMQ: the topology declares
// {queue}.dlq and {queue}.parked as quorum queues whatever the connection
// asks for, a consumer that declares them classic is refused by the broker,
// one given the contract's type consumes, and what it rejects lands in the
// quorum dead-letter queue with its reason.
func TestContractSetAsideTypeAgreesBetweenTopologyAndConsumerOnRabbitMQ(t *testing.T) {
	url, c := brokerURL(t), newCleaner(t)
	ctx := ctxT(t)
	conn, err := acemq.Connect(ctx, url, acemq.SetAsideQueuesOfType(acemq.QueueClassic), testDelay)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	q := c.queue(unique("setaside-type"))
	dlq, parked := c.queue(acemq.DeadLetterQueue(q)), c.queue(acemq.ParkedQueue(q))
	if err := acemq.NewTopology().Queue(q).DeadLettersOfType(q, acemq.QueueQuorum).Apply(ctx, conn); err != nil {
		t.Fatal(err)
	}
	reject := func(context.Context, acemq.Message[order]) acemq.Ack {
		return acemq.Reject(acemq.Fatalf("no such order"))
	}
	if _, err := acemq.Consume(ctx, conn, q, reject); err == nil || !strings.Contains(err.Error(), dlq) {
		t.Fatalf("a consumer declaring %s classic = %v, want the broker's refusal naming it", dlq, err)
	}
	cons, err := acemq.Consume(ctx, conn, q, reject, acemqimpl.ConsumeSetAsideQueuesOfType(acemq.QueueQuorum))
	if err != nil {
		t.Fatalf("a consumer given the contract's type: %v", err)
	}
	defer cons.Close()
	if err := acemq.NewPublisher[order](conn, "", q).Send(ctx, order{ID: 7}); err != nil {
		t.Fatal(err)
	}
	if reasons := newThirdParty(t, url).take(dlq, 1); !strings.Contains(reasons[0], "no such order") {
		t.Fatalf("the dead-lettered reason is %q", reasons[0])
	}
	for _, name := range []string{dlq, parked} {
		if err := conn.DeclareQueue(ctx, name, acemq.OfType(acemq.QueueClassic)); err == nil {
			t.Errorf("%s accepts a classic redeclaration; it was declared quorum", name)
		}
	}
}
