package patterns

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"os/signal"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

// schedulerChildEnv makes this test binary a scheduler process (TestMain),
// so that a test can SIGKILL it mid-move.
const schedulerChildEnv = "ACEMQ_SCHEDULER_CHILD_URL"

func TestMain(m *testing.M) {
	if url := os.Getenv(schedulerChildEnv); url != "" {
		os.Exit(schedulerChild(url))
	}
	os.Exit(m.Run())
}

// schedulerChild runs a scheduler on url until it is killed.
func schedulerChild(url string) int {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	conn, err := acemq.Connect(ctx, url)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer conn.Close()
	s, err := NewScheduler(ctx, conn)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer s.Close()
	fmt.Println("scheduler ready")
	<-ctx.Done()
	return 0
}

// startSchedulerProcess starts a scheduler child on url and returns its
// command once it consumes.
func startSchedulerProcess(t *testing.T, url string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), schedulerChildEnv+"="+url)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ready := make(chan struct{})
	go func() {
		s := bufio.NewScanner(out)
		for s.Scan() {
			if s.Text() == "scheduler ready" {
				close(ready)
			}
		}
	}()
	select {
	case <-ready:
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("the scheduler process did not start")
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	return cmd
}

// TestSchedulerProcessSIGKILLedMidMoveLosesNoneAndIdempotencyAbsorbsTheDuplicates
// schedules 300 messages 2-12 s ahead, runs the only scheduler in a child
// process and SIGKILLs it four times while it moves them down the ladder,
// restarting it each time: every message arrives, and the duplicates a kill
// between a hop's confirm and its ack leaves are handled once.
func TestSchedulerProcessSIGKILLedMidMoveLosesNoneAndIdempotencyAbsorbsTheDuplicates(t *testing.T) {
	url := vhostURL(t, scheduleVhost)
	conn := schedConn(t, url)
	q, got := destination(t, conn, url)
	var handled atomic.Int64
	idem := Chain(func(context.Context, acemq.Message[reminder]) acemq.Ack { handled.Add(1); return acemq.Accept() },
		WithIdempotency[reminder](NewInMemoryIdempotencyStore(time.Hour)))
	due := scheduleMany(t, conn, q, 300, 2*time.Second, 10*time.Second)
	child := startSchedulerProcess(t, url)
	for range 4 {
		time.Sleep(time.Duration(500+rand.N(1500)) * time.Millisecond)
		_ = child.Process.Signal(syscall.SIGKILL)
		_ = child.Wait()
		child = startSchedulerProcess(t, url)
	}
	waitFor(t, 60*time.Second, "every scheduled message arrives", func() bool { return len(uniqueArrivals(got.all())) >= len(due) })
	time.Sleep(time.Second) // room for a late duplicate
	reportArrivals(t, got.all(), due)
	for _, a := range got.all() {
		idem(context.Background(), a.msg)
	}
	if handled.Load() != int64(len(due)) {
		t.Errorf("WithIdempotency let %d of %d arrivals through for %d messages", handled.Load(), len(got.all()), len(due))
	}
}
