package patterns

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

func TestServeNeverDeclaresItsQueue(t *testing.T) {
	onEveryTransport(t, func(t *testing.T, r *rig) {
		conn := r.conn()
		q := r.name("undeclared")
		if _, err := Serve(r.ctx(), conn, q, double); err == nil {
			t.Fatal("Serve on an undeclared queue succeeded")
		}
		if _, err := conn.MessageCount(r.ctx(), q); err == nil {
			t.Errorf("Serve declared %s", q)
		}
	})
}

func TestDeclareAndServeAppliesTheTopologyFirst(t *testing.T) {
	onEveryTransport(t, func(t *testing.T, r *rig) {
		conn := r.conn()
		q := r.name("declared-by-topology")
		resp, err := DeclareAndServe(r.ctx(), conn, acemq.NewTopology().Queue(q, acemq.Transient()), q, double)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Close()
		if got, err := requester[int, int](t, conn, q).Do(r.ctx(), 21); err != nil || got != 42 {
			t.Errorf("got %d, %v", got, err)
		}
	})
}

func TestPanickingHandlerIsAnUndeclaredFailure(t *testing.T) {
	r := &rig{t: t, url: "memory://patterns-" + acemq.NewUUID()}
	conn := r.conn()
	q := r.queue(conn, "panics")
	serve(t, conn, q, func(context.Context, acemq.Message[int]) (int, error) { panic("nil map in the secret path") })
	_, err := requester[int, int](t, conn, q).Do(r.ctx(), 1)
	if !errors.Is(err, ErrResponderFailed) || strings.Contains(err.Error(), "secret") {
		t.Fatalf("err = %v, want a generic failure", err)
	}
	eventually(t, "the request is dead-lettered", func() bool { return count(t, conn, q+".dlq") == 1 })
}

func TestServeRefusesANilHandlerAndAnInvalidOption(t *testing.T) {
	conn := (&rig{t: t, url: "memory://patterns-" + acemq.NewUUID()}).conn()
	if _, err := Serve[int, int](context.Background(), conn, "q", nil); err == nil {
		t.Error("a nil handler was accepted")
	}
	if _, err := Serve(context.Background(), conn, "q", double, acemq.ConsumeWith(nil)); err == nil {
		t.Error("an invalid consume option was accepted")
	}
}
