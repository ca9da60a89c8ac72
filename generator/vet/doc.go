// Package vet holds acemq-vet's analyzers: go/analysis checks for the traps
// the runtime otherwise meets only at run time. The command cmd/acemq-vet
// runs them all (a multichecker, so it also serves as go vet -vettool);
// golangci-lint's module plugin system and other drivers import them from
// here.
//
//	source → go/packages (driver) → go/types → analyzer → diagnostic at file:line:col
//
// The analyzers, each matching the runtime's declarations by package path
// and name through go/types, never by spelling:
//
//   - ReservedHeader (reservedheader): acemq.Header, PublishContext.SetHeader
//     or a write to Envelope.Headers with a constant name in the x-acemq-
//     namespace (case-insensitive, as the runtime compares it).
//   - WireTags (wiretags): a struct used as T of acemq.NewPublisher[T],
//     acemq.Consume[T], acemq.PublishWith[T] or patterns.Serve whose exported
//     fields lack json tags, so they go on the wire under their Go names.
//   - PayloadType (payloadtype): a publish interceptor that assigns c.Payload
//     a value of another type than it asserted c.Payload to, and a typed
//     Intercept<Message> function that replaces *m with a zero value.
//   - InterceptorPanic (interceptorpanic): a direct panic in a publish or
//     consume interceptor or in a Codec method.
//   - Unsettled (unsettled): a handler that returns the zero acemq.Ack{}
//     instead of naming its outcome.
//
// Files that carry the "Code generated ... DO NOT EDIT." header are never
// reported: acemq-gen's output is clean by construction, and nobody edits
// another generator's.
//
// The analyzers keep no state between passes and are safe for concurrent
// use by any driver.
package vet
