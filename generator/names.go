package generator

import (
	"strings"
	"unicode"
)

// initialisms are the Go initialisms golint and staticcheck spell in capitals;
// CONTRACTS.md fixes the list.
var initialisms = map[string]bool{
	"ACL": true, "API": true, "ASCII": true, "CPU": true, "CSS": true, "DNS": true,
	"EOF": true, "GUID": true, "HTML": true, "HTTP": true, "HTTPS": true, "ID": true,
	"IP": true, "JSON": true, "LHS": true, "QPS": true, "RAM": true, "RHS": true,
	"RPC": true, "SLA": true, "SMTP": true, "SQL": true, "SSH": true, "TCP": true,
	"TLS": true, "TTL": true, "UDP": true, "UI": true, "UID": true, "UUID": true,
	"URI": true, "URL": true, "UTF8": true, "VM": true, "XML": true, "XMPP": true,
	"XSRF": true, "XSS": true,
}

// GoName converts a wire name (camelCase, kebab-case, snake_case or dotted)
// into an exported Go identifier: each word capitalised, initialisms in
// capitals (orderId → OrderID, sku → Sku, x-tenant → XTenant).
func GoName(wire string) string {
	var b strings.Builder
	for _, w := range words(wire) {
		if up := strings.ToUpper(w); initialisms[up] {
			b.WriteString(up)
			continue
		}
		b.WriteString(strings.ToUpper(w[:1]) + strings.ToLower(w[1:]))
	}
	return b.String()
}

// words splits a name at separators (-, _, ., space) and at case changes:
// "orderId" → [order Id], "HTTPServer" → [HTTP Server], "utf8Text" → [utf8 Text].
func words(s string) []string {
	var out []string
	for _, part := range strings.FieldsFunc(s, isSeparator) {
		out = append(out, splitCamel(part)...)
	}
	return out
}

func isSeparator(r rune) bool { return r == '-' || r == '_' || r == '.' || r == ' ' }

// splitCamel splits one separator-free part at lower→upper changes and before
// the last capital of a run of capitals followed by a lower-case letter.
func splitCamel(s string) []string {
	rs := []rune(s)
	var out []string
	start := 0
	for i := 1; i < len(rs); i++ {
		if wordBoundary(rs, i) {
			out = append(out, string(rs[start:i]))
			start = i
		}
	}
	return append(out, string(rs[start:]))
}

func wordBoundary(rs []rune, i int) bool {
	prev, cur := rs[i-1], rs[i]
	if !unicode.IsUpper(cur) {
		return false
	}
	if unicode.IsLower(prev) || unicode.IsDigit(prev) {
		return true
	}
	return unicode.IsUpper(prev) && i+1 < len(rs) && unicode.IsLower(rs[i+1])
}

// dotWords is the default routing key of a message: its name in lower-case
// words joined by '.' (OrderPlaced → order.placed).
func dotWords(name string) string { return joinLower(name, ".") }

// kebab is a name in lower-case words joined by '-' (CancelOrder → cancel-order).
func kebab(name string) string { return joinLower(name, "-") }

func joinLower(name, sep string) string {
	ws := words(name)
	for i, w := range ws {
		ws[i] = strings.ToLower(w)
	}
	return strings.Join(ws, sep)
}

// unexported returns name with its first word in lower case, for generated
// unexported helpers (OrderPlaced → orderPlaced, HTTPCall → httpCall).
func unexported(name string) string {
	ws := splitCamel(name)
	return strings.ToLower(ws[0]) + strings.Join(ws[1:], "")
}
