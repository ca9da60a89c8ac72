package acemq_test

import (
	"context"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

func TestCapabilitiesAreSpelledAsTheFamilySpellsThem(t *testing.T) {
	want := map[driver.Capability]string{
		driver.CapabilityPublisherConfirms: "publisher-confirms",
		driver.CapabilityTransactions:      "transactions",
		driver.CapabilityDeadLettering:     "dead-lettering",
		driver.CapabilityQuorumQueues:      "quorum-queues",
		driver.CapabilityStreams:           "streams",
		driver.CapabilityPriority:          "priority",
		driver.CapabilityDelayedDelivery:   "delayed-delivery",
		driver.CapabilityRecovery:          "recovery",
	}
	for c, s := range want {
		if string(c) != s {
			t.Errorf("%q, want %q", c, s)
		}
	}
}

func TestMemorySupportsConfirmsDeadLetteringQuorumAndStreamsOnly(t *testing.T) {
	conn := familyConn(t, "")
	want := map[driver.Capability]bool{
		driver.CapabilityPublisherConfirms: true, driver.CapabilityDeadLettering: true,
		driver.CapabilityQuorumQueues: true, driver.CapabilityStreams: true,
		driver.CapabilityPriority: false, driver.CapabilityRecovery: false,
		driver.CapabilityTransactions: false, driver.CapabilityDelayedDelivery: false,
		driver.Capability("teleportation"): false,
	}
	for c, w := range want {
		if got := conn.Supports(c); got != w {
			t.Errorf("Supports(%q) = %v, want %v", c, got, w)
		}
	}
}

func TestMemoryWithConfirmsOffDoesNotSupportConfirms(t *testing.T) {
	conn := familyConn(t, "?confirms=off")
	if conn.Supports(driver.CapabilityPublisherConfirms) {
		t.Fatal("memory://?confirms=off reports publisher confirms")
	}
	if !conn.Supports(driver.CapabilityDeadLettering) {
		t.Fatal("confirms=off lost dead-lettering")
	}
}

func TestSupportsIsFalseWhenTheTransportDoesNotReport(t *testing.T) {
	conn := bareConn(t)
	for _, c := range []driver.Capability{driver.CapabilityPublisherConfirms, driver.CapabilityDeadLettering} {
		if conn.Supports(c) {
			t.Errorf("a transport without CapabilityReporter supports %q", c)
		}
	}
}

// bareTransport hides every optional seam of the memory transport it wraps.
type bareTransport struct{ driver.Transport }

// bareConn is a connection to a private memory broker through a transport
// with no optional seams.
func bareConn(t *testing.T) *acemq.Conn {
	t.Helper()
	inner := familyConn(t, "")
	conn, err := acemq.NewConn(bareTransport{inner.Transport()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return conn
}

// familyConn connects to a memory broker of the test's own (query such as
// "?confirms=off").
func familyConn(t *testing.T, query string) *acemq.Conn {
	t.Helper()
	conn, err := acemq.Connect(context.Background(), "memory://family-"+t.Name()+"-"+acemq.NewUUID()+query)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return conn
}
