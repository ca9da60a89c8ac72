package rabbitmq

import (
	"context"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// transportWith is an undialled transport configured by opts.
func transportWith(t *testing.T, opts ...acemq.ConnOption) *Transport {
	t.Helper()
	cfg := defaultConfig()
	for _, opt := range opts {
		if err := applyForDial(opt, &cfg); err != nil {
			t.Fatal(err)
		}
	}
	return &Transport{cfg: cfg}
}

func TestRabbitMQSupportsByDefaultEverythingButTransactionsAndDelayedDelivery(t *testing.T) {
	tr := transportWith(t)
	want := map[driver.Capability]bool{
		driver.CapabilityPublisherConfirms: true, driver.CapabilityDeadLettering: true,
		driver.CapabilityQuorumQueues: true, driver.CapabilityStreams: true,
		driver.CapabilityPriority: true, driver.CapabilityRecovery: true,
		driver.CapabilityTransactions: false, driver.CapabilityDelayedDelivery: false,
	}
	for c, w := range want {
		if got := tr.Supports(c); got != w {
			t.Errorf("Supports(%q) = %v, want %v", c, got, w)
		}
	}
}

func TestRabbitMQWithoutConfirmsOrRecoveryDoesNotReportThem(t *testing.T) {
	if transportWith(t, WithoutConfirms()).Supports(driver.CapabilityPublisherConfirms) {
		t.Error("WithoutConfirms still reports publisher confirms")
	}
	if transportWith(t, WithoutRecovery()).Supports(driver.CapabilityRecovery) {
		t.Error("WithoutRecovery still reports recovery")
	}
	if !transportWith(t, WithoutConfirms(), WithoutRecovery()).Supports(driver.CapabilityStreams) {
		t.Error("the options took streams away")
	}
}

func TestConnSupportsAsksTheRabbitMQTransportItConnectedThrough(t *testing.T) {
	url := brokerURL(t)
	conn, err := acemq.Connect(context.Background(), url, WithoutConfirms(), testDelay)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if conn.Supports(driver.CapabilityPublisherConfirms) || !conn.Supports(driver.CapabilityStreams) ||
		!conn.Supports(driver.CapabilityRecovery) {
		t.Fatal("Conn.Supports does not read the connection's options")
	}
}
