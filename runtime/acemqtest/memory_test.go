package acemqtest_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"sync"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
	"github.com/acemq/acemq-gen/runtime/acemqtest"
)

// memoryURLs gives each subtest one memory broker of its own, which every
// transport the subtest opens reaches.
var memoryURLs sync.Map

func memoryURL(t *testing.T) string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	u, loaded := memoryURLs.LoadOrStore(t, "memory://conformance-"+hex.EncodeToString(b))
	if !loaded {
		t.Cleanup(func() { memoryURLs.Delete(t) })
	}
	return u.(string)
}

func TestMemoryTransportPassesTheConformanceSuite(t *testing.T) {
	acemqtest.TransportConformance(t, func(t *testing.T) driver.Transport {
		conn, err := acemq.Connect(context.Background(), memoryURL(t))
		if err != nil {
			t.Fatal(err)
		}
		return conn.Transport()
	})
}
