package acemq

import (
	"context"
	"strings"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

func TestQuorumQueueOptionsSetTheirArguments(t *testing.T) {
	spec, err := buildQueueSpec([]QueueOption{DeliveryLimit(5), LeaderLocator(LeaderBalanced), AtLeastOnceDeadLettering()})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{driver.ArgQueueType: "quorum", driver.ArgDeliveryLimit: 5, driver.ArgLeaderLocator: "balanced",
		driver.ArgDeadLetterStrategy: "at-least-once", driver.ArgOverflow: "reject-publish"}
	for k, v := range want {
		if spec.Args[k] != v {
			t.Errorf("%s = %v, want %v (args %v)", k, spec.Args[k], v, spec.Args)
		}
	}
}

func TestQuorumQueueOptionsRefuseBadValuesAndOtherQueueTypes(t *testing.T) {
	for _, c := range []struct {
		name string
		opts []QueueOption
		want string
	}{
		{"delivery limit 0", []QueueOption{DeliveryLimit(0)}, "DeliveryLimit must be at least 1, got 0"},
		{"delivery limit on classic", []QueueOption{OfType(QueueClassic), DeliveryLimit(3)}, "x-delivery-limit needs a quorum queue, but the queue is classic"},
		{"delivery limit on transient", []QueueOption{Transient(), DeliveryLimit(3)}, "needs a quorum queue"},
		{"unknown locator", []QueueOption{LeaderLocator("random")}, `LeaderLocator needs client-local or balanced, got "random"`},
		{"locator on classic", []QueueOption{OfType(QueueClassic), LeaderLocator(LeaderClientLocal)}, "x-queue-leader-locator needs a quorum queue"},
		{"at-least-once on stream", []QueueOption{OfType(QueueStream), AtLeastOnceDeadLettering()}, "x-dead-letter-strategy needs a quorum queue, but the queue is stream"},
		{"at-least-once with drop-head", []QueueOption{QueueArg(driver.ArgOverflow, "drop-head"), AtLeastOnceDeadLettering()}, "needs x-overflow reject-publish"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := buildQueueSpec(c.opts); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want it to contain %q", err, c.want)
			}
		})
	}
}

// TestTheMemoryBrokerAcceptsQuorumClusterArgumentsAndRefusesBadValues: the
// arguments that matter only on a cluster are accepted by memory://, and
// values RabbitMQ refuses are refused there too.
func TestTheMemoryBrokerAcceptsQuorumClusterArgumentsAndRefusesBadValues(t *testing.T) {
	ctx := context.Background()
	c, err := Connect(ctx, "memory://")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.DeclareQueue(ctx, "orders", DeliveryLimit(3), LeaderLocator(LeaderClientLocal), AtLeastOnceDeadLettering(), DeadLetterTo("dlx")); err != nil {
		t.Fatalf("memory:// refused the quorum options: %v", err)
	}
	for arg, bad := range map[string]string{driver.ArgLeaderLocator: "least-leaders", driver.ArgDeadLetterStrategy: "exactly-once"} {
		err := c.DeclareQueue(ctx, "bad-"+arg, QueueArg(arg, bad))
		if err == nil || !strings.Contains(err.Error(), "PRECONDITION_FAILED - invalid arg '"+arg+"'") {
			t.Errorf("%s=%s: %v, want RabbitMQ's invalid arg refusal", arg, bad, err)
		}
	}
}
