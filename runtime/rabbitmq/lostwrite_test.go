package rabbitmq

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"syscall"
	"testing"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"
)

// A socket error under a publish's write (seen when a cluster node is
// SIGKILLed: "write: connection reset by peer" before amqp091 marks the
// connection closed) is the connection lost, not the publish failed: the
// write is retried once the transport has recovered. A ctx that ended, or an
// error of another kind, is returned.
func TestASocketErrorUnderAWriteIsTheConnectionLostAndWaitsWithinItsCtx(t *testing.T) {
	reset := fmt.Errorf("cannot publish: %w", &net.OpError{Op: "write", Net: "tcp", Err: os.NewSyscallError("write", syscall.ECONNRESET)})
	for err, want := range map[error]bool{
		reset: true, syscall.EPIPE: true, fmt.Errorf("x: %w", amqp.ErrClosed): true,
		context.DeadlineExceeded: false, errors.New("406 PRECONDITION_FAILED"): false,
	} {
		if got := isSocketError(err) || errors.Is(err, amqp.ErrClosed); got != want {
			t.Errorf("%v: taken for the connection lost = %v, want %v", err, got, want)
		}
	}
	tr := &Transport{done: make(chan struct{})}
	p := &pubChannel{conn: &amqp.Connection{}} // open: amqp091 has not noticed the loss
	if tr.lostInWrite(context.Background(), p, context.DeadlineExceeded) {
		t.Error("the ctx's own deadline was taken for a lost connection")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	if tr.lostInWrite(ctx, p, reset) {
		t.Error("a connection that never closed was taken as recovered")
	}
	if d := time.Since(start); d < 40*time.Millisecond || d > 2*time.Second {
		t.Errorf("waited %v for the connection to close, want about the ctx's 50 ms", d)
	}
}
