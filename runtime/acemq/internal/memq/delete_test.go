package memq

import (
	"testing"
)

func TestMemoryDeleteQueueCancelsItsConsumersAndDropsWhatTheyHadNotHandedOut(t *testing.T) {
	c := connect(t)
	mustDeclareQueue(t, c, "orders", nil)
	handed := make(chan Delivery, 1)
	release := make(chan struct{})
	s, err := c.Consume("orders", ConsumeSpec{}, func(d Delivery) {
		handed <- d
		<-release // hold the loop, so the second message stays pending
	})
	if err != nil {
		t.Fatal(err)
	}
	defer close(release)
	mustPublish(t, c, "", "orders", "first")
	first := <-handed
	mustPublish(t, c, "", "orders", "second")
	if err := c.DeleteQueue("orders"); err != nil {
		t.Fatal(err)
	}
	s.q.b.mu.Lock()
	cancelled, pending, unacked := s.cancelled, len(s.pending), len(s.unacked)
	s.q.b.mu.Unlock()
	if !cancelled || pending != 0 || unacked != 1 {
		t.Fatalf("cancelled=%v pending=%d unacked=%d, want true 0 1", cancelled, pending, unacked)
	}
	if err := first.Acker.Ack(); err != nil {
		t.Fatalf("a delivery handed out before the delete cannot be acked: %v", err)
	}
}

func TestMemoryQueueExistsDoesNotCountAsAUseForExpiry(t *testing.T) {
	c := connect(t)
	mustDeclareQueue(t, c, "brief", map[string]any{"x-expires": int64(60000)})
	b := c.b
	b.mu.Lock()
	before := b.queues["brief"].used
	b.mu.Unlock()
	if ok, err := c.QueueExists("brief"); err != nil || !ok {
		t.Fatalf("exists=%v err=%v", ok, err)
	}
	b.mu.Lock()
	after := b.queues["brief"].used
	b.mu.Unlock()
	if !after.Equal(before) {
		t.Fatal("QueueExists touched the queue")
	}
}
