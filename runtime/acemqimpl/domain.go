package acemqimpl

import (
	"fmt"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

// Owned is what a domain declares for one of its messages: a command's
// MessageSpec or an RPCSpec.
type Owned interface {
	Declare(t *acemq.Topology) *acemq.Topology
}

// Topology is what a domain declares: its topic exchange, then what each of
// owned adds, in order. Each call returns a new value.
func Topology(exchange string, owned ...Owned) *acemq.Topology {
	t := acemq.NewTopology().Exchange(exchange, "topic")
	for _, o := range owned {
		t = o.Declare(t)
	}
	return t
}

// notImplemented is the error of a generated handler default.
type notImplemented struct{ kind, name string }

// NotImplemented is the error a generated Unimplemented handler rejects a
// message (or fails a call) with: "acemq: <kind> <name> is not implemented",
// matching acemq.ErrNotImplemented.
func NotImplemented(kind, name string) error { return &notImplemented{kind: kind, name: name} }

func (e *notImplemented) Error() string {
	return fmt.Sprintf("acemq: %s %s is not implemented", e.kind, e.name)
}

// Is matches acemq.ErrNotImplemented.
func (e *notImplemented) Is(target error) bool { return target == acemq.ErrNotImplemented }
