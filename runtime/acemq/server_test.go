package acemq_test

import (
	"context"
	"errors"
	"io"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemqimpl"
)

// closer records that it was closed and returns err.
type closer struct {
	closed *[]string
	name   string
	err    error
}

func (c closer) Close() error { *c.closed = append(*c.closed, c.name); return c.err }

func starting(c io.Closer, err error) func(context.Context) (io.Closer, error) {
	return func(context.Context) (io.Closer, error) { return c, err }
}

func TestStartServerStopsWhatStartedWhenOneFailsToStart(t *testing.T) {
	var closed []string
	boom, closeErr := errors.New("boom"), errors.New("close a")
	s, err := acemqimpl.StartServer(context.Background(),
		starting(closer{&closed, "a", closeErr}, nil),
		starting(nil, boom),
		starting(closer{&closed, "c", nil}, nil))
	if s != nil || !errors.Is(err, boom) || !errors.Is(err, closeErr) {
		t.Fatalf("StartServer = %v, %v; want nil and boom joined with a's close error", s, err)
	}
	if len(closed) != 1 || closed[0] != "a" {
		t.Fatalf("closed %v, want only a (c never started)", closed)
	}
}

func TestServerCloseStopsEverythingAndJoinsTheErrors(t *testing.T) {
	var closed []string
	e1, e2 := errors.New("one"), errors.New("two")
	s, err := acemqimpl.StartServer(context.Background(),
		starting(closer{&closed, "a", e1}, nil), starting(closer{&closed, "b", e2}, nil))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); !errors.Is(err, e1) || !errors.Is(err, e2) {
		t.Fatalf("Close = %v, want both errors", err)
	}
	if len(closed) != 2 || closed[0] != "a" || closed[1] != "b" {
		t.Fatalf("closed %v, want a then b", closed)
	}
}
