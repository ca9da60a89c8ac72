package acemq_test

import (
	"errors"
	"io"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

func TestRetryableMarksAnErrorKeepingItsTextAndChain(t *testing.T) {
	err := acemq.Retryable(io.ErrUnexpectedEOF)
	var re *acemq.RetryableError
	if !errors.As(err, &re) || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("Retryable lost the mark or the chain: %#v", err)
	}
	if err.Error() != io.ErrUnexpectedEOF.Error() {
		t.Fatalf("text %q", err)
	}
	if acemq.Retryable(nil) != nil {
		t.Fatal("Retryable(nil) is not nil")
	}
}

func TestRetryablefFormatsAndWraps(t *testing.T) {
	err := acemq.Retryablef("acemq: the store timed out after %dms: %w", 30, io.EOF)
	if err.Error() != "acemq: the store timed out after 30ms: EOF" || !errors.Is(err, io.EOF) {
		t.Fatalf("got %q", err)
	}
	if !acemq.IsRetryable(err) {
		t.Fatal("a Retryablef error is not retryable")
	}
}

func TestIsRetryableIsNonNilAndNotFatal(t *testing.T) {
	cases := []struct {
		name string
		err  error
		want bool
	}{
		{"nil", nil, false},
		{"plain", io.EOF, true},
		{"marked", acemq.Retryable(io.EOF), true},
		{"fatal", acemq.Fatal(io.EOF), false},
		{"fatal inside retryable", acemq.Retryable(acemq.Fatal(io.EOF)), false},
		{"fatal deep in a wrap", driver.Transportf(acemq.Fatalf("bad"), "decode"), false},
	}
	for _, c := range cases {
		if got := acemq.IsRetryable(c.err); got != c.want {
			t.Errorf("%s: IsRetryable = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestTransportfNamesTheOperationOncePrefixed(t *testing.T) {
	inner := errors.New("acemq: the socket closed")
	err := driver.Transportf(inner, "declare queue %q", "orders")
	if err.Error() != `acemq: declare queue "orders": the socket closed` {
		t.Fatalf("got %q", err)
	}
	var te *driver.TransportError
	if !errors.As(err, &te) || te.Op != `declare queue "orders"` || !errors.Is(err, inner) {
		t.Fatalf("fields or chain lost: %#v", err)
	}
	if driver.Transportf(nil, "publish") != nil {
		t.Fatal("Transportf(nil) is not nil")
	}
}

func TestATransportErrorIsRetryable(t *testing.T) {
	if !acemq.IsRetryable(driver.Transportf(io.EOF, "publish")) {
		t.Fatal("a transport failure is not retryable")
	}
}
