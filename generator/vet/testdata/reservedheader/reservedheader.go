// Package reservedheader holds the reservedheader analyzer's cases.
package reservedheader

import (
	"context"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

const tenantHeader = "X-AceMQ-Tenant"

func reported(c *acemq.PublishContext, env *acemq.Envelope) []acemq.EnvelopeOption {
	c.SetHeader("x-acemq-id", "mine")                                      // want `SetHeader\("x-acemq-id"\): the x-acemq- namespace belongs to the engine`
	env.Headers["x-acemq-attempt"] = 2                                     // want `Envelope.Headers\["x-acemq-attempt"\]`
	c.Envelope.Headers[tenantHeader] = "acme"                              // want `Envelope.Headers\["X-AceMQ-Tenant"\]`
	env.Headers = map[string]any{"x-acemq-error": "x"}                     // want `Envelope.Headers\["x-acemq-error"\]`
	_ = acemq.Envelope{Headers: map[string]any{"X-ACEMQ-ID": 1}}           // want `Envelope.Headers\["X-ACEMQ-ID"\]`
	return []acemq.EnvelopeOption{acemq.Header("x-acemq-"+"origin", "me")} // want `acemq.Header\("x-acemq-origin"\)`
}

// notReported: names of one's own, names known only at run time, the
// prefix without its dash, and maps that are not an envelope's headers.
func notReported(c *acemq.PublishContext, env *acemq.Envelope, name string) []acemq.EnvelopeOption {
	c.SetHeader("x-tenant", "acme")
	c.SetHeader(name, "unknown until run time")
	env.Headers["x-acemq"] = "no dash: not the namespace"
	env.Headers[name] = 1
	other := map[string]any{}
	other["x-acemq-id"] = "a map of my own"
	_ = header("x-acemq-id")
	return []acemq.EnvelopeOption{acemq.Header("x-yourcompany-id", 1), acemq.MessageID("x-acemq-id")}
}

// header is a function of the same name in another package's place.
func header(name string) string { return name }

var _ = context.Background
