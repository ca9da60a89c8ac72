package jsonimpl

import (
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// unquote appends the value of the JSON string s (its contents, between the
// quotes, whose escapes stringSpan checked) to dst as encoding/json reads
// it: a lone or broken surrogate and each byte of invalid UTF-8 become
// U+FFFD.
func unquote(dst, s []byte) []byte {
	for r := 0; r < len(s); {
		switch c := s[r]; {
		case c == '\\':
			var n int
			dst, n = unescape(dst, s[r:])
			r += n
		case c < utf8.RuneSelf:
			dst = append(dst, c)
			r++
		default:
			rr, size := utf8.DecodeRune(s[r:])
			dst = utf8.AppendRune(dst, rr)
			r += size
		}
	}
	return dst
}

// unescape appends the value of the escape at the start of s and returns
// how many bytes it took.
func unescape(dst, s []byte) ([]byte, int) {
	switch s[1] {
	case 'b':
		return append(dst, '\b'), 2
	case 'f':
		return append(dst, '\f'), 2
	case 'n':
		return append(dst, '\n'), 2
	case 'r':
		return append(dst, '\r'), 2
	case 't':
		return append(dst, '\t'), 2
	case 'u':
		rr := hex4(s[2:6])
		if !utf16.IsSurrogate(rr) {
			return utf8.AppendRune(dst, rr), 6
		}
		if len(s) >= 12 && s[6] == '\\' && s[7] == 'u' {
			if dec := utf16.DecodeRune(rr, hex4(s[8:12])); dec != unicode.ReplacementChar {
				return utf8.AppendRune(dst, dec), 12
			}
		}
		return utf8.AppendRune(dst, unicode.ReplacementChar), 6
	}
	return append(dst, s[1]), 2 // " \ /
}

// hex4 is the value of four hex digits, which stringSpan checked.
func hex4(s []byte) rune {
	var r rune
	for _, c := range s {
		switch {
		case c <= '9':
			c -= '0'
		case c <= 'F':
			c -= 'A' - 10
		default:
			c -= 'a' - 10
		}
		r = r<<4 | rune(c)
	}
	return r
}
