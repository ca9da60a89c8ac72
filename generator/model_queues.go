package generator

import (
	"fmt"
	"github.com/acemq/acemq-gen/runtime/acemq"
	"slices"
	"strings"
)

// queueSettings resolves the keys of an event, command or rpc about the
// queues it is consumed from; set-aside-queues defaults to the file's.
func (r *resolver) queueSettings(s syntaxQueueKeys) QueueSettings {
	if !s.SetAside.Set {
		s.SetAside = r.f.SetAside
	}
	return QueueSettings{
		DeliveryLimit:            r.deliveryLimit(s.DeliveryLimit),
		LeaderLocator:            acemq.LeaderLocation(r.queueKey(s.LeaderLocator, "leader-locator")),
		AtLeastOnceDeadLettering: r.queueKey(s.DeadLetterStrategy, "dead-letter-strategy") == "at-least-once",
		SetAside:                 acemq.QueueType(r.queueKey(s.SetAside, "set-aside-queues")),
	}
}

// queueKey reads the string queue key name, one of its table's values.
func (r *resolver) queueKey(v sStr, name string) string {
	k := queueKeyNamed(name)
	return r.oneOf(v, k.name, k.what, k.values...)
}

// deliveryLimit reads a delivery-limit key: at least 1, 0 when absent.
func (r *resolver) deliveryLimit(v sInt) int {
	if v.Set && v.V < 1 {
		r.d.errorf(v.P, "delivery-limit must be at least 1 (%s), got %d", queueKeyNamed("delivery-limit").what, v.V)
		return 0
	}
	return v.V
}

// oneOf reads key's value v, which must be one of allowed; "" when absent
// or refused.
func (r *resolver) oneOf(v sStr, key, what string, allowed ...string) string {
	if !v.Set {
		return ""
	}
	if !slices.Contains(allowed, v.V) {
		r.d.errorf(v.P, "%s must be %s (%s), got %q", key, orList(allowed), what, v.V)
		return ""
	}
	return v.V
}

// orList is "a or b", "a, b or c".
func orList(s []string) string {
	if len(s) == 1 {
		return s[0]
	}
	return fmt.Sprintf("%s or %s", strings.Join(s[:len(s)-1], ", "), s[len(s)-1])
}
