package ops

import (
	"strings"
	"testing"
)

// FuzzParseKeysErrorsQuoteNothing: whatever ACEMQ_KEYS holds, an error is
// one of parseKeys' fixed sentences with numbers in it, never its text.
func FuzzParseKeysErrorsQuoteNothing(f *testing.F) {
	for _, s := range []string{"k1=MDEyMzQ1Njc4OWFiY2RlZg==", "MDEyMzQ1Njc4OWFiY2RlZg==", "MDEyMzQ1Njc4OWFiY2RlZg===k1", "k=x,k=y", "=", ",,"} {
		f.Add(s)
	}
	templates := map[string]bool{}
	for _, e := range []error{
		errBadEntry(1), errNotBase64(1), errUnusable(1, 1), errRepeatedID(1), errNoKeyring(),
	} {
		templates[strings.Map(dropDigits, e.Error())] = true
	}
	f.Fuzz(func(t *testing.T, v string) {
		_, err := ParseKeys(v)
		if err != nil && !templates[strings.Map(dropDigits, err.Error())] {
			t.Fatalf("ParseKeys(%q) = %q: not one of its fixed sentences", v, err)
		}
	})
}

func dropDigits(r rune) rune {
	if r >= '0' && r <= '9' {
		return -1
	}
	return r
}
