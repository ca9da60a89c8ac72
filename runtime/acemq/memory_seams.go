package acemq

// Supports reports what the memory transport does (CapabilityReporter):
// publisher confirms (unless memory://NAME?confirms=off), dead-lettering and
// quorum queues. It does not consume streams, order by priority, delay
// delivery, run transactions or reconnect (it never loses its connection).
func (t *memTransport) Supports(c Capability) bool {
	switch c {
	case CapabilityPublisherConfirms:
		return t.confirms
	case CapabilityDeadLettering, CapabilityQuorumQueues:
		return true
	default:
		return false
	}
}
