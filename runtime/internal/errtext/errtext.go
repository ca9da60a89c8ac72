// Package errtext bounds the text of an error a codec returns, since a
// parser's error may quote the body it failed on (goccy/go-yaml prints the
// whole offending line, a TOML error the last key), and a consumer sets a
// message aside with that text in a header.
package errtext

import "unicode/utf8"

// Max is the most bytes of an error's text Bound keeps.
const Max = 512

// bounded is an error whose text is cut short; errors.Is and errors.As see
// the original through Unwrap.
type bounded struct {
	text string
	err  error
}

func (b *bounded) Error() string { return b.text }
func (b *bounded) Unwrap() error { return b.err }

// Bound returns err unchanged when its text is at most Max bytes, else an
// error of its first Max bytes (cut at a rune boundary) and " …", wrapping
// err. Bound(nil) is nil.
func Bound(err error) error {
	if err == nil {
		return nil
	}
	s := err.Error()
	if len(s) <= Max {
		return err
	}
	cut := Max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return &bounded{text: s[:cut] + " …", err: err}
}
