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

func TestCallNamedBuildsTheNameOnlyWhenFPanics(t *testing.T) {
	built := 0
	name := func() string { built++; return "the codec" }
	if _, err := safecall.CallNamed(name, func() (int, error) { return 1, nil }); err != nil || built != 0 {
		t.Fatalf("no panic: err %v, name built %d times", err, built)
	}
	_, err := safecall.CallNamed(name, func() (int, error) { panic("boom") })
	if err == nil || err.Error() != "the codec panicked: boom" || built != 1 {
		t.Fatalf("panic: err %v, name built %d times", err, built)
	}
}
