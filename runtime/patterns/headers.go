package patterns

import (
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
	"github.com/acemq/acemq-gen/runtime/internal/headerval"
)

// The request/reply headers (FAMILY-SPEC §2.3 and issue 6). They are
// application headers, outside the reserved x-acemq- namespace.
const (
	// HeaderReplyTo names the reply address; written beside the AMQP
	// reply-to property, and read before it.
	HeaderReplyTo = driver.ReplyToHeader
	// HeaderError marks a failure reply: the declared error's code, or the
	// generic "the responder failed (message <id>)". A family responder may
	// write "<Class>: <text>" (Python does, without HeaderErrorCode); a
	// requester takes a declared error's name as Class for that error.
	HeaderError = semconv.HeaderRPCError
	// HeaderErrorCode carries a declared error's code, such as NotFound.
	HeaderErrorCode = semconv.HeaderRPCErrorCode
	// HeaderDeadline is the caller's deadline in epoch milliseconds.
	HeaderDeadline = "acemq-deadline"
)

// headerString reads a string header that may arrive as []byte.
func headerString(h map[string]any, name string) (string, bool) { return headerval.String(h, name) }

// headerMillis reads an epoch-milliseconds header of any integer width.
func headerMillis(h map[string]any, name string) (int64, bool) { return headerval.Millis(h, name) }
