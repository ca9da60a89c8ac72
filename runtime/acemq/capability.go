package acemq

import "github.com/acemq/acemq-gen/runtime/acemq/driver"

// Supports reports whether the connection's transport can do capability; false when
// the transport does not implement driver.CapabilityReporter. The
// capabilities are driver.CapabilityStreams, driver.CapabilityQuorumQueues
// and the other driver.Capability values. Safe for concurrent
// use; never blocks.
func (c *Conn) Supports(capability driver.Capability) bool {
	r, ok := c.transport.(driver.CapabilityReporter)
	return ok && r.Supports(capability)
}
