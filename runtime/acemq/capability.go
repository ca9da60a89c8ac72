package acemq

import "github.com/acemq/acemq-gen/runtime/acemq/driver"

// Supports reports whether the connection's transport can do c; false when
// the transport does not implement CapabilityReporter. Safe for concurrent
// use; never blocks.
func (c *Conn) Supports(capability driver.Capability) bool {
	r, ok := c.transport.(driver.CapabilityReporter)
	return ok && r.Supports(capability)
}
