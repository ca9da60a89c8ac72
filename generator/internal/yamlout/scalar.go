package yamlout

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
)

// scalar writes a string as a YAML scalar: plain when that is safe, as a
// literal block (only as a mapping's value, inMap) when every line survives
// one, double-quoted otherwise. indent is where the mapping's key starts.
func scalar(s string, indent int, inMap bool) string {
	switch {
	case plainSafe(s):
		return s
	case inMap && literalSafe(s):
		return literal(s, indent)
	}
	return quoted(s)
}

// ambiguousWords are the plain scalars YAML 1.1 or 1.2 reads as a boolean,
// a null or a merge or value key.
var ambiguousWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields("y yes n no true false on off null ~ << =") {
		for _, v := range []string{w, strings.ToUpper(w), strings.ToUpper(w[:1]) + w[1:]} {
			ambiguousWords[v] = true
		}
	}
}

// numberLike is what may start with a digit and still be written plain: a
// dotted version (3.0.0) or a Go duration (1m30s), which no YAML schema
// reads as a number, a date or a time.
var numberLike = regexp.MustCompile(`^([0-9]+\.[0-9]+\.[0-9]+|([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+)$`)

// plainSafe reports whether s reads back as the same string when written
// plain, in a block mapping or sequence, by YAML 1.1 and 1.2 parsers alike.
func plainSafe(s string) bool {
	if s == "" || ambiguousWords[s] || len(s) > 200 {
		return false
	}
	if strings.ContainsAny(s[:1], "-?:,[]{}#&*!|>'\"%@` \t0123456789+.") && !numberLike.MatchString(s) {
		return false
	}
	if strings.HasSuffix(s, " ") || strings.HasSuffix(s, ":") || strings.Contains(s, ": ") || strings.ContainsAny(s, "#[]{}") || strings.Contains(s, "<<") {
		return false // '#', '[]' and '{}' are safe in block context, but some parsers disagree
	}
	for _, r := range s {
		if !printable(r) || r == '\t' {
			return false
		}
	}
	return true
}

// printable reports a rune written as it is inside a YAML scalar: a
// printable character (not NEL, LS, PS, a BOM or a bidirectional control,
// which unicode.IsPrint already refuses) or a tab.
func printable(r rune) bool { return r == '\t' || unicode.IsPrint(r) }

// literalSafe reports whether s, holding a line break, survives a literal
// block scalar: every character printable, the first line starting with
// text, no line starting with a tab, no blank at a line's end (which editors
// and parsers may drop), and some text before the trailing line breaks.
func literalSafe(s string) bool {
	body := strings.TrimRight(s, "\n")
	if !strings.Contains(body, "\n") || body == "" || body[0] == ' ' || body[0] == '\n' {
		return false // parsers disagree on indentation indicators: a block needing one is quoted
	}
	for _, r := range s {
		if r != '\n' && !printable(r) {
			return false
		}
	}
	for _, l := range strings.Split(body, "\n") {
		if strings.HasPrefix(l, "\t") || strings.HasSuffix(l, " ") || strings.HasSuffix(l, "\t") {
			return false
		}
	}
	return true
}

// literal writes s as a literal block under a key at indent: its content
// indented two more (its first line starts with text, so the indentation
// parsers detect is that), with the chomping indicator that keeps s's
// trailing line breaks.
func literal(s string, indent int) string {
	body := strings.TrimRight(s, "\n")
	header := "|"
	switch trailing := len(s) - len(body); {
	case trailing == 0:
		header += "-"
	case trailing > 1:
		header += "+"
	}
	pad := strings.Repeat(" ", indent+2)
	var b strings.Builder
	b.WriteString(header)
	for _, l := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
		b.WriteString("\n")
		if l != "" {
			b.WriteString(pad + l)
		}
	}
	return b.String()
}

// quoted writes s as a double-quoted scalar, escaping what is not printable.
func quoted(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		b.WriteString(quotedRune(r))
	}
	b.WriteByte('"')
	return b.String()
}

var namedEscapes = map[rune]string{'"': `\"`, '\\': `\\`, 0: `\0`, '\a': `\a`, '\b': `\b`, '\t': `\t`,
	'\n': `\n`, '\v': `\v`, '\f': `\f`, '\r': `\r`, 0x1b: `\e`, 0x85: `\N`, 0x2028: `\L`, 0x2029: `\P`}

func quotedRune(r rune) string {
	if e, ok := namedEscapes[r]; ok {
		return e
	}
	switch {
	case unicode.IsPrint(r):
		return string(r)
	case r <= 0xff:
		return fmt.Sprintf(`\x%02x`, r)
	case r <= 0xffff:
		return fmt.Sprintf(`\u%04x`, r)
	}
	return fmt.Sprintf(`\U%08x`, r)
}
