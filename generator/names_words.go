package generator

import (
	"strings"
	"unicode"
)

// Splitting names into words, for Go names and for the wire names a
// contract leaves to its defaults (routing keys, queues).

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
