// Package unsettled holds the unsettled analyzer's cases.
package unsettled

import (
	"context"
	"errors"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/patterns"
)

type Order struct {
	ID string `json:"id"`
}

var reported acemq.Handler[Order] = func(ctx context.Context, m acemq.Message[Order]) acemq.Ack {
	if m.Payload.ID == "" {
		return acemq.Ack{} // want `the handler returns the zero acemq.Ack\{\}, which accepts the message`
	}
	return acemq.Accept()
}

func start(ctx context.Context, conn *acemq.Conn) {
	acemq.Consume(ctx, conn, "orders", patterns.Chain(func(_ context.Context, m acemq.Message[Order]) acemq.Ack {
		switch m.Payload.ID {
		case "retry":
			return acemq.Retry(errors.New("later"))
		case "":
			return (acemq.Ack{}) // want `returns the zero acemq.Ack`
		}
		return acemq.Accept()
	}))
}

func declared(_ context.Context, m acemq.Message[Order]) acemq.Ack {
	if m.Redelivered {
		return acemq.Ack{} // want `returns the zero acemq.Ack`
	}
	return acemq.Retry(errors.New("first time"))
}

// Not reported: every outcome named, a zero Ack outside a handler, and a
// nested function's return.
var named acemq.Handler[Order] = func(_ context.Context, m acemq.Message[Order]) acemq.Ack {
	switch m.Payload.ID {
	case "a":
		return acemq.Accept()
	case "r":
		return acemq.Reject(errors.New("no"))
	case "p":
		return acemq.Park(errors.New("look"))
	case "i":
		return acemq.InProgress(time.Second)
	}
	zero := func() acemq.Ack { return acemq.Ack{} }
	return zero()
}

func notAHandler() acemq.Ack { return acemq.Ack{} }
