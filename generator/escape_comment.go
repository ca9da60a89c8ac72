package generator

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// This file is the one escaping rule for Go comment text: every generated
// comment, and so every contract text that reaches one (doc, deprecated,
// header docs, names echoed in a sentence), goes through goComment. Whatever
// the text holds, it stays comment text:
//
//   - it is split at every line terminator Go or an editor sees (\n, \r,
//     \r\n, VT, FF, NEL U+0085, LS U+2028, PS U+2029), and each line is
//     written as a // line comment, never as a /* */ block;
//   - control characters (NUL included), DEL, C1 controls, a byte order
//     mark, bidirectional formatting characters and invalid UTF-8 are
//     written as Go escapes (\x00, \u202e);
//   - "*/" and "/*" become "* /" and "/ *", so the text can never end or
//     open a block comment, even pasted into one;
//   - a line always starts "// " (with the space), so no line is a compiler
//     directive (//go:, //line, //export, //extern); a line that reads as an
//     old-style build constraint ("+build", which the space does not stop)
//     is escaped with a backslash.

// lineTerminators are the line breaks, other than \n, that a comment's text
// is split at.
var lineTerminators = strings.NewReplacer("\r\n", "\n", "\r", "\n", "\v", "\n", "\f", "\n",
	"\u0085", "\n", "\u2028", "\n", "\u2029", "\n")

// splitCommentLines splits text at every line terminator.
func splitCommentLines(text string) []string {
	return strings.Split(lineTerminators.Replace(text), "\n")
}

// goComment is one line of comment text as the Go line comment that holds
// it, ready for jennifer (which writes a comment starting with // as it is).
func goComment(line string) string {
	line = escapeCommentText(line)
	if line == "" {
		return "//"
	}
	if strings.HasPrefix(strings.TrimSpace(line), "+build") {
		line = `\` + line
	}
	return "// " + line
}

// escapeCommentText escapes what a comment line must not hold.
func escapeCommentText(line string) string {
	var b strings.Builder
	for i := 0; i < len(line); {
		r, size := utf8.DecodeRuneInString(line[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			fmt.Fprintf(&b, `\x%02x`, line[i])
		case unsafeInComment(r):
			b.WriteString(runeEscape(r))
		default:
			b.WriteRune(r)
		}
		i += size
	}
	s := strings.ReplaceAll(b.String(), "*/", "* /")
	return strings.ReplaceAll(s, "/*", "/ *")
}

// unsafeInComment reports a rune Go refuses in source (NUL, a BOM), one an
// editor shows otherwise than Go reads it (line breaks, bidirectional
// formatting), or an invisible control character.
func unsafeInComment(r rune) bool {
	switch {
	case r == '\t':
		return false
	case r < 0x20, r >= 0x7f && r <= 0x9f:
		return true
	case r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return r == 0x2028 || r == 0x2029 || r == 0xfeff
}

// runeEscape is r as a Go escape.
func runeEscape(r rune) string {
	if r < 0x100 {
		return fmt.Sprintf(`\x%02x`, r)
	}
	return fmt.Sprintf(`\u%04x`, r)
}
