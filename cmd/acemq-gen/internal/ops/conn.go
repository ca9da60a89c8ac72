package ops

import (
	"context"
	"fmt"

	"github.com/acemq/acemq-gen/runtime/acemq"
	_ "github.com/acemq/acemq-gen/runtime/rabbitmq" // amqp:// and amqps://
)

// Connect connects to the broker at raw, never printing its credentials.
func Connect(ctx context.Context, raw string) (*acemq.Conn, error) {
	conn, err := acemq.Connect(ctx, raw)
	if err != nil {
		return nil, fmt.Errorf("acemq-gen: cannot connect to %s: %w", acemq.RedactURL(raw), err)
	}
	return conn, nil
}
