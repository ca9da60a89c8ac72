package patterns

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"
)

func TestDeclaredErrorRendersItsCodeInWordsAndMatchesByCode(t *testing.T) {
	cases := map[string]string{
		"NotFound":          "acemq: not found (NotFound)",
		"HTTPTimeout":       "acemq: http timeout (HTTPTimeout)",
		"OutOfStock":        "acemq: out of stock (OutOfStock)",
		"Gone":              "acemq: gone (Gone)",
		"OrderIDNotAllowed": "acemq: order id not allowed (OrderIDNotAllowed)",
	}
	for code, want := range cases {
		if got := NewError(code).Error(); got != want {
			t.Errorf("NewError(%q).Error() = %q, want %q", code, got, want)
		}
	}
	wrapped := fmt.Errorf("lookup: %w", NewError("NotFound"))
	if !errors.Is(wrapped, NewError("NotFound")) || errors.Is(wrapped, NewError("Gone")) {
		t.Error("DeclaredErrors must match by code only")
	}
}

func TestTimeoutErrorMatchesBothSentinelsInTheFamilysWords(t *testing.T) {
	err := error(&TimeoutError{After: 5 * time.Second, CorrelationID: "9f2c"})
	if err.Error() != "acemq: no reply arrived before the deadline after 5s (correlation 9f2c)" {
		t.Errorf("got %q", err)
	}
	if !errors.Is(err, ErrRequestTimedOut) || !errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		t.Error("a TimeoutError matches ErrRequestTimedOut and context.DeadlineExceeded only")
	}
}

func TestResponderErrorKeepsTheFamilysWording(t *testing.T) {
	if got := (&ResponderError{Text: "boom"}).Error(); got != "acemq: the responder failed: boom" {
		t.Errorf("family text: %q", got)
	}
	if got := (&ResponderError{Text: genericFailure("m-1")}).Error(); got != "acemq: the responder failed (message m-1)" {
		t.Errorf("generic text: %q", got)
	}
	if !errors.Is(&ResponderError{}, ErrResponderFailed) {
		t.Error("a ResponderError matches ErrResponderFailed")
	}
}

func TestHeaderReadersAcceptEveryWireForm(t *testing.T) {
	h := map[string]any{"s": []byte("x"), "a": int32(5), "b": int64(6), "c": float64(7), "d": "no"}
	if s, ok := headerString(h, "s"); !ok || s != "x" {
		t.Errorf("bytes header: %q %v", s, ok)
	}
	for name, want := range map[string]int64{"a": 5, "b": 6, "c": 7} {
		if v, ok := headerMillis(h, name); !ok || v != want {
			t.Errorf("%s: %d %v", name, v, ok)
		}
	}
	if _, ok := headerMillis(h, "d"); ok {
		t.Error("a non-number is no deadline")
	}
}

func TestInvalidRequesterOptionsAreRefused(t *testing.T) {
	conn := (&rig{t: t, url: "memory://patterns-opts"}).conn()
	for name, opt := range map[string]RequesterOption{
		"zero timeout": Timeout(0), "empty reply queue": ReplyTo(""), "nil codec": RequesterCodec(nil),
		"nil declared": DeclaredErrors(nil), "nil option": nil,
	} {
		if _, err := NewRequester[int, int](context.Background(), conn, "", "q", opt); err == nil {
			t.Errorf("%s was accepted", name)
		}
	}
}
