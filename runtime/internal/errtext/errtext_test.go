package errtext

import (
	"errors"
	"strings"
	"testing"
)

func TestBoundCutsLongTextAndKeepsTheChain(t *testing.T) {
	base := errors.New(strings.Repeat("é", Max))
	err := Bound(base)
	if len(err.Error()) > Max+len(" …") || !strings.HasSuffix(err.Error(), " …") || !errors.Is(err, base) {
		t.Fatalf("Bound gave %d bytes %q…", len(err.Error()), err.Error()[:20])
	}
	short := errors.New("short")
	if Bound(short) != short || Bound(nil) != nil {
		t.Fatal("a short error or nil changed")
	}
}
