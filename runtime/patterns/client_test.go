package patterns

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// plainTransport hides the transport's ReplyTransport seam; with failOpen it
// fails the first declaration of a reply queue.
type plainTransport struct {
	driver.Transport
	failures atomic.Int64
	declared []string
	mu       sync.Mutex
}

func (p *plainTransport) DeclareQueue(ctx context.Context, name string, spec driver.QueueSpec) error {
	if strings.HasPrefix(name, "acemq-reply-") && p.failures.Add(-1) >= 0 {
		return errors.New("the broker is busy")
	}
	p.mu.Lock()
	p.declared = append(p.declared, name)
	p.mu.Unlock()
	return p.Transport.DeclareQueue(ctx, name, spec)
}

func memoryTransport(t *testing.T) driver.Transport {
	conn, err := acemq.Connect(context.Background(), "memory://patterns-"+acemq.NewUUID())
	if err != nil {
		t.Fatal(err)
	}
	return conn.Transport()
}

// servedOnPlainTransport is a connection on a plainTransport whose first
// failures reply-queue creations fail, with double served on its queue "q";
// the caller closes it.
func servedOnPlainTransport(t *testing.T, failures int64) *acemq.Conn {
	t.Helper()
	pt := &plainTransport{Transport: memoryTransport(t)}
	pt.failures.Store(failures)
	conn, err := acemq.NewConn(pt)
	if err != nil {
		t.Fatal(err)
	}
	if err := conn.DeclareQueue(context.Background(), "q", acemq.Transient()); err != nil {
		t.Fatal(err)
	}
	serve(t, conn, "q", double)
	return conn
}

func TestTransportWithoutTheReplySeamFallsBackToAnExclusiveReplyQueue(t *testing.T) {
	conn := servedOnPlainTransport(t, 0)
	defer conn.Close()
	req := requester[int, int](t, conn, "q")
	if !strings.HasPrefix(req.ReplyQueue(), "acemq-reply-") {
		t.Errorf("reply queue %q, want acemq-reply-<uuid>", req.ReplyQueue())
	}
	if got, err := req.Do(context.Background(), 4); err != nil || got != 8 {
		t.Fatalf("got %d, %v", got, err)
	}
	if err := req.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.MessageCount(context.Background(), req.ReplyQueue()); err == nil {
		t.Error("the auto-delete reply queue outlived its requester")
	}
}

func TestClientMakesItsRequesterOnFirstUseAndRetriesAFailedCreation(t *testing.T) {
	conn := servedOnPlainTransport(t, 1)
	defer conn.Close()
	client := NewClient[int, int](conn, "", "q")
	defer client.Close()
	if _, err := client.Do(context.Background(), 1); err == nil || !strings.Contains(err.Error(), "the broker is busy") {
		t.Fatalf("first call: err = %v, want the creation's failure", err)
	}
	var wg sync.WaitGroup
	for i := range 10 {
		wg.Go(func() {
			if got, err := client.Do(context.Background(), i); err != nil || got != 2*i {
				t.Errorf("call %d: got %d, %v", i, got, err)
			}
		})
	}
	wg.Wait()
	if err := client.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := client.Do(context.Background(), 1); !errors.Is(err, ErrRequesterClosed) {
		t.Errorf("after Close: err = %v, want ErrRequesterClosed", err)
	}
}

func TestUnroutableRequestFailsAtOnce(t *testing.T) {
	conn := (&rig{t: t, url: "memory://patterns-" + acemq.NewUUID()}).conn()
	req := requester[int, int](t, conn, "no-such-queue")
	_, err := req.Do(context.Background(), 1)
	if !errors.Is(err, acemq.ErrUnroutable) {
		t.Fatalf("err = %v, want ErrUnroutable without waiting for the timeout", err)
	}
}

func TestClosedRequesterFailsWaitingAndNewCalls(t *testing.T) {
	conn := (&rig{t: t, url: "memory://patterns-" + acemq.NewUUID()}).conn()
	if err := conn.DeclareQueue(context.Background(), "silent", acemq.Transient()); err != nil {
		t.Fatal(err)
	}
	req := requester[int, int](t, conn, "silent")
	done := make(chan error, 1)
	go func() { _, err := req.Do(context.Background(), 1); done <- err }()
	eventually(t, "the request is queued", func() bool { return count(t, conn, "silent") == 1 })
	if err := req.Close(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; !errors.Is(err, ErrRequesterClosed) {
		t.Errorf("waiting call: err = %v, want ErrRequesterClosed", err)
	}
	if _, err := req.Do(context.Background(), 1); !errors.Is(err, ErrRequesterClosed) {
		t.Errorf("new call: err = %v, want ErrRequesterClosed", err)
	}
}

func TestRequesterCodecFuncBuildsFromTheConnectionAndItsErrorFailsCreation(t *testing.T) {
	conn := (&rig{t: t, url: "memory://patterns-" + acemq.NewUUID()}).conn()
	var seen *acemq.Conn
	build := func(c *acemq.Conn) (acemq.Codec, error) { seen = c; return acemq.BytesCodec{}, nil }
	req, err := NewRequester[[]byte, []byte](context.Background(), conn, "", "q", RequesterCodecFunc(build))
	if err != nil || seen != conn {
		t.Fatalf("err %v, build saw %p want %p", err, seen, conn)
	}
	_ = req.Close()
	missing := func(*acemq.Conn) (acemq.Codec, error) {
		return nil, errors.New("acemq: the codec needs avro.WithRegistry")
	}
	client := NewClient[int, int](conn, "", "q", RequesterCodecFunc(missing))
	if _, err := client.Do(context.Background(), 1); err == nil || !strings.Contains(err.Error(), "avro.WithRegistry") {
		t.Errorf("err = %v, want the builder's error", err)
	}
}
