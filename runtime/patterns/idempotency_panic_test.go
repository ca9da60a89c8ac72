package patterns_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/patterns"
)

// panickingStore panics with "boom" in the method named by in.
type panickingStore struct{ in string }

func (s panickingStore) Claim(context.Context, string) (bool, error) {
	if s.in == "Claim" {
		panic("boom")
	}
	return true, nil
}

func (s panickingStore) Confirm(context.Context, string) error {
	if s.in == "Confirm" {
		panic("boom")
	}
	return nil
}

func (s panickingStore) Release(context.Context, string) error {
	if s.in == "Release" {
		panic("boom")
	}
	return nil
}

func TestPanickingIdempotencyStoreIsARetryNotACrash(t *testing.T) {
	retry := func(context.Context, acemq.Message[order]) acemq.Ack { return acemq.Retry(errors.New("later")) }
	accept := func(context.Context, acemq.Message[order]) acemq.Ack { return acemq.Accept() }
	for _, c := range []struct {
		in      string
		handler acemq.Handler[order]
		want    string // the Ack's name
		reason  string // in its error, "" for none
	}{
		{"Claim", accept, "retry", `acemq: cannot claim idempotency key "m-1": the idempotency store panicked: boom`},
		{"Confirm", accept, "retry", `acemq: cannot confirm idempotency key "m-1": the idempotency store panicked: boom`},
		{"Release", retry, "in_progress", ""},
	} {
		h := patterns.WithIdempotency[order](panickingStore{in: c.in})(c.handler)
		ack := h(context.Background(), message("m-1"))
		if ack.String() != c.want || (c.reason != "" && (ack.Err() == nil || ack.Err().Error() != c.reason)) {
			t.Errorf("%s panicking: %s %v, want %s %q", c.in, ack, ack.Err(), c.want, c.reason)
		}
	}
}

func TestPanickingIdempotencyStoreReleaseAfterAPanickingHandlerLeavesTheHandlersPanic(t *testing.T) {
	h := patterns.Chain(func(context.Context, acemq.Message[order]) acemq.Ack { panic("handler broke") },
		patterns.WithRecovery[order](), patterns.WithIdempotency[order](panickingStore{in: "Release"}))
	ack := h(context.Background(), message("m-1"))
	if ack.String() != "reject" || !strings.Contains(ack.Err().Error(), "handler broke") {
		t.Fatalf("got %s %v, want the handler's panic as the reject", ack, ack.Err())
	}
}
