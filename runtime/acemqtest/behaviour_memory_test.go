package acemqtest_test

import (
	"crypto/rand"
	"encoding/hex"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemqtest"
)

func TestMemoryPassesTheBehaviourSuite(t *testing.T) {
	acemqtest.BehaviourSuite(t, func(t *testing.T) string {
		b := make([]byte, 8)
		_, _ = rand.Read(b)
		return "memory://behaviour-" + hex.EncodeToString(b)
	})
}
