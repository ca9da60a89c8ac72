package batchfail_test

import (
	"errors"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/internal/batchfail"
)

// TestBatchErrorIsWrittenOnceInAcemq: the batch error runtime/otel reports
// is built by acemq's own function, set as New when acemq is initialised.
func TestBatchErrorIsWrittenOnceInAcemq(t *testing.T) {
	if batchfail.New == nil {
		t.Fatal("acemq did not set batchfail.New")
	}
	if err := batchfail.New([]error{nil, nil}); err != nil {
		t.Fatalf("a batch without failures: %v", err)
	}
	first, second := errors.New("first"), errors.New("second")
	var e *acemq.BatchPublishFailedError
	if err := batchfail.New([]error{nil, first, second}); !errors.As(err, &e) {
		t.Fatalf("got %T %v; want a *acemq.BatchPublishFailedError", err, err)
	}
	if e.Total != 3 || e.Confirmed != 1 || e.Failed != 2 || e.First != first || len(e.Errors) != 2 {
		t.Errorf("got %+v", e)
	}
}
