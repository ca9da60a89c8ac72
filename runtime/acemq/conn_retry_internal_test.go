package acemq

import (
	"context"
	"testing"
	"time"
)

func TestConnDefaultRetryPolicyIsFiveExponentialAttempts(t *testing.T) {
	conn, err := Connect(context.Background(), "memory://conn-default-retry")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if got := conn.retryPolicy(); got != ExponentialRetry(5, time.Second, time.Minute) {
		t.Errorf("policy %v", got)
	}
}
