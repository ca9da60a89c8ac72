// Package codecbound holds what the codecs' tests and fuzz targets hold a
// decoder to on hostile input: every failure fatal, a limit refused fast and
// small, and a body that cannot be decoded parked with its reason.
package codecbound

import (
	"errors"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
	"github.com/acemq/acemq-gen/runtime/internal/membound"
)

// FatalOnly decodes body with c into each of dsts (pointers to fresh
// destinations) in turn, failing t on the first error that is not fatal.
func FatalOnly(t testing.TB, c acemq.Codec, body []byte, dsts ...any) {
	t.Helper()
	for _, dst := range dsts {
		if err := c.Decode(body, dst); err != nil && !acemq.IsFatal(err) {
			t.Fatalf("non-fatal error %v", err)
		}
	}
}

// Refused runs decode, a decoding of body, and fails t unless it returns a
// fatal *acemq.LimitError naming limit (that is also each of also),
// allocating under maxAlloc bytes in under a second.
func Refused(t testing.TB, body []byte, limit string, maxAlloc uint64, decode func() error, also ...error) {
	t.Helper()
	var err error
	start := time.Now()
	n := membound.Allocated(func() { err = decode() })
	var le *acemq.LimitError
	ok := acemq.IsFatal(err) && errors.As(err, &le) && le.Limit == limit
	for _, target := range also {
		ok = ok && errors.Is(err, target)
	}
	if !ok {
		t.Fatalf("decoding %d bytes gave %v, want a fatal %s limit error", len(body), err, limit)
	}
	if took := time.Since(start); took > 10*time.Second { // a guard against super-linear work (such bombs took minutes), not a benchmark: room for -race on a busy machine
		t.Errorf("refusing %d bytes took %v", len(body), took)
	}
	if n > maxAlloc {
		t.Errorf("refusing %d bytes allocated %d bytes, want under %d", len(body), n, maxAlloc)
	}
}

// Parked waits up to 5 s for a message on queue's parked queue, failing t
// unless one arrives parked with the reason want.
func Parked(t testing.TB, conn *acemq.Conn, queue, want string) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		d, ok, err := conn.Pull(t.Context(), acemq.ParkedQueue(queue))
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			if reason, _ := d.Headers[semconv.HeaderError].(string); reason != want {
				t.Fatalf("parked with reason %q, want %q", reason, want)
			}
			return
		}
	}
	t.Fatal("nothing was parked within 5s")
}
