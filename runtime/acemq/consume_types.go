package acemq

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/acemq/acemq-gen/runtime/acemq/driver"
	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
)

// ExpectMessageTypes makes the consumer park, without running the handler,
// a delivery whose x-acemq-type header is present and names none of types
// (after the consume interceptors, which may rewrite the envelope's type),
// with the reason `the message's type "<type>" is not one this consumer
// handles ("<type>", ...)`. A delivery without the header (a publisher
// outside the family) is handled. It keeps a message meant for another
// consumer — an RPC reply a hostile request had sent to a command queue,
// whose type is "<request type>.reply" (patterns.Serve) or the address it
// was sent to (the family's Go responder) — from being decoded as this
// consumer's payload, which JSON would accept, its unknown fields ignored.
// The family's publishers write the routing key as the type unless told
// otherwise; the generated consumers expect their message's routing key.
// At least one non-empty type is required. Default: every type.
func ExpectMessageTypes(types ...string) ConsumeOption {
	return func(cfg *consumeConfig) error {
		if len(types) == 0 || slices.Contains(types, "") {
			return errors.New("acemq: ExpectMessageTypes needs at least one type, none empty")
		}
		cfg.types = append(slices.Clip(cfg.types), types...)
		return nil
	}
}

// foreignType returns the park reason of a delivery whose x-acemq-type
// header names a type the consumer does not expect (ExpectMessageTypes);
// env is its envelope after the interceptors.
func (c *Consumer) foreignType(d driver.Delivery, env Envelope) (string, bool) {
	if len(c.cfg.types) == 0 || slices.Contains(c.cfg.types, env.Type) {
		return "", false
	}
	if _, present := d.Headers[semconv.HeaderType]; !present {
		return "", false
	}
	quoted := make([]string, len(c.cfg.types))
	for i, t := range c.cfg.types {
		quoted[i] = fmt.Sprintf("%q", t)
	}
	return fmt.Sprintf("the message's type %q is not one this consumer handles (%s)", env.Type, strings.Join(quoted, ", ")), true
}
