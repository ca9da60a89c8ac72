package main

import (
	"context"
	"os"
	"testing"
	"time"
)

// TestBookstoreHandlesEveryMessageOnMemory runs the example end to end on the
// embedded broker: every published event and command reaches its handler.
func TestBookstoreHandlesEveryMessageOnMemory(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := run(ctx, "memory://bookstore-test"); err != nil {
		t.Fatal(err)
	}
}

// TestBookstoreHandlesEveryMessageOnRabbitMQ runs the same program against the
// broker started by scripts/test.sh.
func TestBookstoreHandlesEveryMessageOnRabbitMQ(t *testing.T) {
	url := os.Getenv("ACEMQ_TEST_AMQP_URL")
	if url == "" {
		if os.Getenv("ACEMQ_REQUIRE_BROKER") == "1" {
			t.Fatal("ACEMQ_REQUIRE_BROKER=1 but ACEMQ_TEST_AMQP_URL is unset: start one with scripts/broker.sh")
		}
		t.Skip("no broker: set ACEMQ_TEST_AMQP_URL (scripts/broker.sh start prints one), or run scripts/test.sh")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := run(ctx, url); err != nil {
		t.Fatal(err)
	}
}
