package acemqtest_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemqtest"
)

func TestMemoryTransportPassesTheConformanceSuite(t *testing.T) {
	acemqtest.TransportConformance(t, func(t *testing.T) acemq.Transport {
		b := make([]byte, 8)
		_, _ = rand.Read(b)
		conn, err := acemq.Connect(context.Background(), "memory://conformance-"+hex.EncodeToString(b))
		if err != nil {
			t.Fatal(err)
		}
		return conn.Transport()
	})
}
