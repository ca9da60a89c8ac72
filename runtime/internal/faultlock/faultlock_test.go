package faultlock

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// TestAHeldNodeMakesAnotherProcessWait: while a test holds the lock,
// another process (another test binary, as go test runs packages) waits for
// it, and gets it once the holder ends.
func TestAHeldNodeMakesAnotherProcessWait(t *testing.T) {
	if os.Getenv("FAULTLOCK_CHILD") != "" {
		Hold(t, os.Getenv("FAULTLOCK_CHILD"))
		return
	}
	port := "test-" + strconv.Itoa(os.Getpid())
	t.Cleanup(func() { _ = os.Remove(filepath.Join(os.TempDir(), "acemq-fault-node-"+port+".lock")) })
	released := make(chan error, 1)
	t.Run("holder", func(t *testing.T) {
		Hold(t, port)
		Hold(t, port) // held already: no deadlock
		t.Run("sub", func(t *testing.T) { Hold(t, port) })
		child := exec.Command(os.Args[0], "-test.run", "^TestAHeldNodeMakesAnotherProcessWait$")
		child.Env = append(os.Environ(), "FAULTLOCK_CHILD="+port)
		if err := child.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- child.Wait() }()
		select {
		case err := <-done:
			t.Fatalf("another process took the held lock (exit %v)", err)
		case <-time.After(300 * time.Millisecond):
		}
		t.Cleanup(func() { go func() { released <- <-done }() })
	})
	select {
	case err := <-released:
		if err != nil {
			t.Fatalf("the waiting process failed: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the waiting process did not get the lock once the holder ended")
	}
}
