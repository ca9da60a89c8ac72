package safecall_test

import (
	"errors"
	"testing"

	"github.com/acemq/acemq-gen/runtime/internal/safecall"
)

func TestAPanicBecomesAnErrorNamingWhatPanicked(t *testing.T) {
	v, err := safecall.Call("the store", func() (int, error) { panic("boom") })
	var pe *safecall.PanicError
	if v != 0 || !errors.As(err, &pe) || err.Error() != "the store panicked: boom" {
		t.Fatalf("Call = %d, %v", v, err)
	}
}

func TestAPanicWithAnErrorIsWrapped(t *testing.T) {
	sentinel := errors.New("sentinel")
	if err := safecall.Err("the store", func() error { panic(sentinel) }); !errors.Is(err, sentinel) {
		t.Fatalf("Err = %v, want it to wrap the panic's error", err)
	}
}

func TestWithoutAPanicWhatFReturnsIsReturned(t *testing.T) {
	want := errors.New("plain")
	if v, err := safecall.Call("the store", func() (int, error) { return 7, want }); v != 7 || err != want {
		t.Fatalf("Call = %d, %v", v, err)
	}
}
