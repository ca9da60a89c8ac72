package acemq

import (
	"maps"
	"strings"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

func TestDurableQueueDefaultsToQuorum(t *testing.T) {
	spec, err := buildQueueSpec(nil)
	if err != nil || !spec.Durable || spec.Exclusive || spec.AutoDelete || !maps.Equal(spec.Args, map[string]any{"x-queue-type": "quorum"}) {
		t.Errorf("spec %+v, err %v: want durable quorum", spec, err)
	}
}

func TestExclusiveAutoDeleteAndTransientQueuesStayClassic(t *testing.T) {
	for name, opt := range map[string]QueueOption{"exclusive": Exclusive(), "auto-delete": AutoDelete(), "transient": Transient()} {
		spec, err := buildQueueSpec([]QueueOption{opt})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, typed := spec.Args[driver.ArgQueueType]; typed {
			t.Errorf("%s queue sends x-queue-type %v; classic sends none", name, spec.Args[driver.ArgQueueType])
		}
	}
	spec, _ := buildQueueSpec([]QueueOption{Transient(), Exclusive(), AutoDelete()})
	if spec.Durable || !spec.Exclusive || !spec.AutoDelete {
		t.Errorf("flags not set: %+v", spec)
	}
}

func TestOfTypeClassicSendsNoQueueType(t *testing.T) {
	spec, err := buildQueueSpec([]QueueOption{OfType(QueueClassic)})
	if err != nil || !spec.Durable || len(spec.Args) != 0 {
		t.Errorf("spec %+v, err %v: want durable with no arguments", spec, err)
	}
}

func TestOfTypeStreamAndQuorumAreSent(t *testing.T) {
	for _, typ := range []QueueType{QueueStream, QueueQuorum} {
		spec, err := buildQueueSpec([]QueueOption{OfType(typ)})
		if err != nil || spec.Args[driver.ArgQueueType] != string(typ) {
			t.Errorf("%s: spec %+v, err %v", typ, spec, err)
		}
	}
}

func TestQuorumAndStreamRefuseClassicOnlyFlags(t *testing.T) {
	for _, opts := range [][]QueueOption{{OfType(QueueQuorum), Exclusive()}, {Transient(), OfType(QueueStream)}, {AutoDelete(), OfType(QueueQuorum)}} {
		if _, err := buildQueueSpec(opts); err == nil || !strings.Contains(err.Error(), "must be durable, not exclusive and not auto-delete") {
			t.Errorf("err = %v", err)
		}
	}
}

func TestQueueOptionsRefuseUnusableValues(t *testing.T) {
	for name, opt := range map[string]QueueOption{
		"unknown type": OfType("lazy"), "empty dlx": DeadLetterTo(""), "empty arg": QueueArg("", 1), "nil value": QueueArg("x-max-length", nil), "nil option": nil,
	} {
		if _, err := buildQueueSpec([]QueueOption{opt}); err == nil || !strings.HasPrefix(err.Error(), "acemq: ") {
			t.Errorf("%s: err = %v", name, err)
		}
	}
}

func TestDeadLetterToAndQueueArgSetArguments(t *testing.T) {
	spec, err := buildQueueSpec([]QueueOption{DeadLetterTo("my.dlx"), QueueArg("x-max-length", 10)})
	want := map[string]any{"x-dead-letter-exchange": "my.dlx", "x-max-length": 10, "x-queue-type": "quorum"}
	if err != nil || !maps.Equal(spec.Args, want) {
		t.Errorf("args %v, err %v; want %v", spec.Args, err, want)
	}
}

func TestExchangeIsDurableByDefaultAndNeedsAKind(t *testing.T) {
	spec, err := buildExchangeSpec("topic", nil)
	if err != nil || spec.Kind != "topic" || !spec.Durable {
		t.Errorf("spec %+v, err %v", spec, err)
	}
	spec, err = buildExchangeSpec("direct", []ExchangeOption{TransientExchange(), ExchangeArg("alternate-exchange", "ae")})
	if err != nil || spec.Durable || spec.Args["alternate-exchange"] != "ae" {
		t.Errorf("spec %+v, err %v", spec, err)
	}
	if _, err := buildExchangeSpec("", nil); err == nil {
		t.Errorf("a kindless exchange was accepted")
	}
	if _, err := buildExchangeSpec("direct", []ExchangeOption{ExchangeArg("", 1)}); err == nil {
		t.Errorf("an unnamed argument was accepted")
	}
}
