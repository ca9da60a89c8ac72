package acemqtest

import (
	"context"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

// Connect opens a connection, with opts, to a private memory:// broker (one
// no other test reaches) through a Recorder, and returns both. The
// connection is closed when the test ends (its Close error is ignored; call
// Close yourself to check it). A failure to connect, such as an invalid
// option, fails the test at once.
func Connect(t testing.TB, opts ...acemq.ConnOption) (*acemq.Conn, *Recorder) {
	t.Helper()
	conn, rec := connectRecorded(t, "memory://"+uniqueName("recorder"), opts)
	if conn != nil {
		t.Cleanup(func() { _ = conn.Close() })
	}
	return conn, rec
}

// connectRecorded opens url through a Recorder with opts, failing t (and
// returning nils) when that cannot be done.
func connectRecorded(t testing.TB, url string, opts []acemq.ConnOption) (*acemq.Conn, *Recorder) {
	t.Helper()
	dialed, err := acemq.Connect(context.Background(), url)
	if err != nil {
		t.Fatalf("acemqtest: cannot open %s: %v", acemq.RedactURL(url), err)
		return nil, nil
	}
	rec := NewRecorder(dialed.Transport())
	conn, err := acemq.NewConn(rec, opts...)
	if err != nil {
		_ = dialed.Close()
		t.Fatalf("acemqtest: cannot connect to %s: %v", acemq.RedactURL(url), err)
		return nil, nil
	}
	return conn, rec
}
