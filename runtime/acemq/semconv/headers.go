package semconv

// The reserved envelope headers (FAMILY-SPEC §2.2).
const (
	HeaderID            = "x-acemq-id"
	HeaderType          = "x-acemq-type"
	HeaderVersion       = "x-acemq-version"
	HeaderCorrelation   = "x-acemq-correlation"
	HeaderCausation     = "x-acemq-causation"
	HeaderAttempt       = "x-acemq-attempt"
	HeaderFirstSeen     = "x-acemq-first-seen"
	HeaderOrigin        = "x-acemq-origin"
	HeaderError         = "x-acemq-error"
	HeaderClaim         = "x-acemq-claim"
	HeaderRoute         = "x-acemq-route"
	HeaderRoutePosition = "x-acemq-route-position"
	HeaderRouteID       = "x-acemq-route-id"
)

// HeaderHeadersRefused marks a delivery whose header table the transport
// could not read (nested too deep, too many entries, an unknown field type,
// truncated): the transport replaced the table with this one header, whose
// string value says why, and the engine parks the delivery as "could not be
// decoded: <why>". It is local to a consumer and never sent to the broker.
const HeaderHeadersRefused = "x-acemq-headers-refused"

// The headers of a failure reply (FAMILY-SPEC §2.3), application headers
// outside the reserved namespace; runtime/patterns writes and reads them as
// HeaderError and HeaderErrorCode.
const (
	HeaderRPCError     = "acemq-error"
	HeaderRPCErrorCode = "acemq-error-code"
)
