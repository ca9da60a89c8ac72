package acemqimpl_test

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemqimpl"
	_ "github.com/acemq/acemq-gen/runtime/xml"
)

func TestQueueKeysTurnThemselvesIntoTheQueueOptionsTheySay(t *testing.T) {
	if opts := (acemqimpl.QueueKeys{SetAside: acemq.QueueQuorum}).Options(); opts != nil {
		t.Fatalf("set-aside alone gave %d queue options, want none", len(opts))
	}
	k := acemqimpl.QueueKeys{DeliveryLimit: 3, LeaderLocator: acemq.LeaderBalanced, AtLeastOnceDeadLettering: true}
	plan := strings.Join(acemq.NewTopology().Queue("q", k.Options()...).Plan(), "\n")
	for _, want := range []string{"x-delivery-limit", "x-queue-leader-locator", "x-dead-letter-strategy"} {
		if !strings.Contains(plan, want) {
			t.Errorf("the queue lacks %s:\n%s", want, plan)
		}
	}
}

func TestRetryPolicyIsTheRuntimesPolicyOfTheSameKey(t *testing.T) {
	for _, c := range []struct {
		r    acemqimpl.Retry
		want acemq.RetryPolicy
	}{
		{acemqimpl.Retry{Backoff: "fixed", Attempts: 3, Initial: time.Second}, acemq.FixedRetry(3, time.Second)},
		{acemqimpl.Retry{Backoff: "exponential", Attempts: 5, Initial: time.Second, Max: time.Minute, MaxAge: time.Hour},
			acemq.ExponentialRetry(5, time.Second, time.Minute).GiveUpAfter(time.Hour)},
	} {
		if got := c.r.Policy(); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%+v.Policy() = %+v, want %+v", c.r, got, c.want)
		}
	}
}

func TestNamedBuildsARegisteredCodecAndRefusesAnUnknownName(t *testing.T) {
	c, err := acemqimpl.Named("xml")(nil)
	if err != nil || c.ContentType() != "application/xml" {
		t.Fatalf("Named(xml) = %v, %v", c, err)
	}
	if _, err := acemqimpl.Named("no-such-codec")(connect(t)); err == nil || !strings.Contains(err.Error(), "no-such-codec") {
		t.Fatalf("an unknown codec gave %v", err)
	}
}
