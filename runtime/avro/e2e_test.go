package avro_test

import (
	"context"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemqimpl"
	"github.com/acemq/acemq-gen/runtime/avro"
)

const (
	writerSchema = `{"type":"record","name":"Order","namespace":"com.acme","fields":[{"name":"orderId","type":"string"}]}`
	readerSchema = `{"type":"record","name":"Order","namespace":"com.acme","fields":[{"name":"orderId","type":"string"},
	  {"name":"visibility","type":"string","default":"public"}]}`
)

type oldOrder struct {
	OrderID string `avro:"orderId"`
}

type newOrder struct {
	OrderID    string `avro:"orderId"`
	Visibility string `avro:"visibility"`
}

func TestAnOldProducerAndANewConsumerShareTheMemoryBroker(t *testing.T) {
	conn, err := acemq.Connect(t.Context(), "memory://avro-e2e", avro.WithRegistry(avro.NewMemoryRegistry()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	reg, err := avro.RegistryFrom(conn)
	if err != nil {
		t.Fatal(err)
	}
	writer, err := avro.Registered(reg, "orders-order.placed", writerSchema)
	if err != nil {
		t.Fatal(err)
	}
	reader, err := avro.Registered(reg, "orders-order.placed", readerSchema, avro.ReaderSchema(readerSchema))
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan acemq.Message[newOrder], 1)
	topo := acemq.NewTopology().Exchange("orders", "topic").Queue("billing").Binding("billing", "orders", "order.*")
	_, err = acemqimpl.DeclareAndConsume(t.Context(), conn, topo, "billing", func(_ context.Context, m acemq.Message[newOrder]) acemq.Ack {
		got <- m
		return acemq.Accept()
	}, acemq.ConsumeWith(reader))
	if err != nil {
		t.Fatal(err)
	}
	if err := acemq.NewPublisher(conn, "orders", "order.placed", acemq.PublishWith[oldOrder](writer)).Send(t.Context(), oldOrder{OrderID: "o-1"}); err != nil {
		t.Fatal(err)
	}
	m := <-got
	if m.Payload != (newOrder{OrderID: "o-1", Visibility: "public"}) || m.ContentType != avro.ContentTypeRegistered {
		t.Fatalf("received %+v as %q", m.Payload, m.ContentType)
	}
}
