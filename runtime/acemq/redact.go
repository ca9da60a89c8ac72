package acemq

import (
	"errors"

	"github.com/acemq/acemq-gen/runtime/internal/redact"
)

// ErrURLCredentialsNotEncoded matches (errors.Is) the error of Connect, and
// of CheckURL, for a URL whose user name or password holds an unencoded '/',
// '?', '#' or '@': a URL parser would take part of the password for the host
// (and look the user name up as a host name), the path or the query, and
// print it. The error tells to percent-encode them and quotes no part of
// the URL.
var ErrURLCredentialsNotEncoded = errors.New("acemq: " + redact.ErrNotEncoded.Error())

// CheckURL returns ErrURLCredentialsNotEncoded for a URL (AMQP, HTTP or any
// scheme://) whose user information holds an unencoded reserved character:
// an '@' after the first '/', '?' or '#' that follows the scheme. Connect
// checks its URL so before anything else (no DNS lookup, no dial).
func CheckURL(raw string) error {
	if redact.Check(raw) != nil {
		return ErrURLCredentialsNotEncoded
	}
	return nil
}

// RedactURL returns raw as it may be printed in an error, a log or a
// command's output: scheme://user:xxxxx@host[,host…]/path, the password
// replaced, any query or fragment shown as "?…", control characters
// percent-encoded. A URL CheckURL refuses, or one without a scheme, is not
// shown at all (the result says so). Every message of the runtime and of
// acemq-gen that names a URL goes through it. Safe for concurrent use.
func RedactURL(raw string) string { return redact.URL(raw) }
