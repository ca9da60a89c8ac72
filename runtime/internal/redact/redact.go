// Package redact is the one rule by which the runtime and acemq-gen show a
// URL that may hold credentials (AMQP, HTTP): Check refuses a URL whose user
// information would be misread, URL renders one without its password. The
// exported forms are acemq.CheckURL, acemq.RedactURL and
// acemq.ErrURLCredentialsNotEncoded.
package redact

import (
	"errors"
	"strings"
)

// ErrNotEncoded is Check's error: the URL's user information holds a
// reserved character that is not percent-encoded.
var ErrNotEncoded = errors.New("the URL's user name or password holds an unencoded '/', '?', '#' or '@': " +
	"percent-encode them (/ as %2F, ? as %3F, # as %23, @ as %40); the URL is not shown, as it holds the password")

// Hidden stands for the password in what URL returns.
const Hidden = "xxxxx"

// Check reports ErrNotEncoded for a URL in which an '@' follows the first
// '/', '?' or '#' after its scheme: its user information then holds one of
// them unencoded, and a parser would take part of the password for the host,
// the path or the query (and dial the user name as a host). Check never
// quotes raw.
func Check(raw string) error {
	_, rest, ok := strings.Cut(raw, "://")
	if !ok {
		return nil
	}
	at := strings.LastIndexByte(rest, '@')
	if at < 0 {
		return nil
	}
	if end := strings.IndexAny(rest, "/?#"); end >= 0 && end < at {
		return ErrNotEncoded
	}
	return nil
}

// URL returns raw as it may be shown: scheme://user:xxxxx@host[,host…]/path,
// the password replaced by Hidden, a query or fragment by "?…", control
// characters percent-encoded. A URL that Check refuses, or that has no
// scheme, is not shown at all: the result then says so.
func URL(raw string) string {
	scheme, rest, ok := strings.Cut(raw, "://")
	if Check(raw) != nil {
		return "(a URL with unencoded characters in its user name or password, not shown)"
	}
	if !ok || !IsScheme(scheme) {
		return "(a URL without a scheme, not shown)"
	}
	authority, tail := rest, ""
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		authority, tail = rest[:i], rest[i:]
	}
	out := scheme + "://" + withoutPassword(authority)
	if i := strings.IndexAny(tail, "?#"); i >= 0 {
		out += tail[:i] + "?…"
	} else {
		out += tail
	}
	return printable(out)
}

// withoutPassword is authority with the password of its user information
// replaced by Hidden. An authority without '@' whose port is not a number is
// hidden whole: it may be user:password with its '@' forgotten.
func withoutPassword(authority string) string {
	at := strings.LastIndexByte(authority, '@')
	if at < 0 && !portsAreNumbers(authority) {
		return Hidden
	}
	if at < 0 {
		return authority
	}
	user, _, hasPass := strings.Cut(authority[:at], ":")
	if hasPass {
		user += ":" + Hidden
	}
	return user + "@" + authority[at+1:]
}

// portsAreNumbers reports whether every host:port of a comma-separated
// list has a port of digits only (or none).
func portsAreNumbers(hosts string) bool {
	for _, h := range strings.Split(hosts, ",") {
		if i := strings.LastIndexByte(h, ']'); i >= 0 { // [IPv6]:port
			h = h[i+1:]
		}
		_, port, ok := strings.Cut(h, ":")
		if ok && strings.Trim(port, "0123456789") != "" {
			return false
		}
	}
	return true
}

// IsScheme reports whether s is a URL scheme: a letter, then letters,
// digits, '+', '-' or '.'.
func IsScheme(s string) bool {
	for i, c := range s {
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !letter && (i == 0 || !(c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return false
		}
	}
	return s != ""
}

// printable percent-encodes control characters and spaces, so a URL cannot
// break a log line or pass for something else.
func printable(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c == 0x7f {
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}
