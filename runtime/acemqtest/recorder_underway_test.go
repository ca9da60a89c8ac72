package acemqtest_test

import (
	"context"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
	"github.com/acemq/acemq-gen/runtime/acemqtest"
)

// slowReturn is a transport whose Publish has delivered (published is
// closed) but has not yet returned until release is closed: what memory://
// does when a reply reaches its caller inside the responder's publish.
type slowReturn struct {
	driver.Transport
	published, release chan struct{}
}

func (s *slowReturn) Publish(ctx context.Context, exchange, key string, msg driver.Outbound) (acemq.PublishResult, error) {
	res, err := s.Transport.Publish(ctx, exchange, key, msg)
	close(s.published)
	<-s.release
	return res, err
}

func TestPublishedIncludesAPublishThatDeliveredButHasNotReturned(t *testing.T) {
	dialed, err := acemq.Connect(context.Background(), "memory://recorder-underway")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = dialed.Close() })
	inner := &slowReturn{Transport: dialed.Transport(), published: make(chan struct{}), release: make(chan struct{})}
	rec := acemqtest.NewRecorder(inner)
	go func() { _, _ = rec.Publish(context.Background(), "", "nowhere", driver.Outbound{Body: []byte("x")}) }()
	<-inner.published
	got := make(chan []acemqtest.Record, 1)
	go func() { got <- rec.Published() }()
	select {
	case early := <-got:
		t.Fatalf("Published returned %d records while a delivered publish was still under way; want it to wait for it", len(early))
	case <-time.After(50 * time.Millisecond):
	}
	close(inner.release)
	if records := <-got; len(records) != 1 || records[0].RoutingKey != "nowhere" {
		t.Fatalf("Published = %+v, want the one publish that was under way", records)
	}
}
