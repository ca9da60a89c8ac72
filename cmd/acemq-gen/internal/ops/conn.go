package ops

import (
	"context"

	"github.com/acemq/acemq-gen/runtime/acemq"
	_ "github.com/acemq/acemq-gen/runtime/rabbitmq" // amqp:// and amqps://
)

// Connect connects to the broker at raw, never printing its credentials; its
// error is CannotConnect's.
func Connect(ctx context.Context, raw string) (*acemq.Conn, error) {
	conn, err := acemq.Connect(ctx, raw)
	if err != nil {
		return nil, CannotConnect(raw, err)
	}
	return conn, nil
}
