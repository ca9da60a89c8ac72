// Package faultlock lets the tests of several packages take turns with the
// fault node scripts/test.sh starts. `go test ./...` runs packages at once,
// and one package restarting the node (the outbox crash tests) must not pull
// it from under another's tests (the rabbitmq blocked-connection and TLS
// tests): a test that uses the node holds its lock, a file lock every test
// process on the machine sees, until it ends.
//
//	test A (package outbox) ──► Hold(t, port) ─ restart the node ─ cleanup: release
//	test B (package rabbitmq) ─► Hold(t, port) ─ waits ────────────► uses the node
package faultlock

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

var (
	mu      sync.Mutex
	holders = map[string]bool{} // names of the tests of this process holding a lock
)

// Hold waits until no other test on the machine uses the fault node on
// port, then holds it for t: the lock is released when t and its cleanups
// end. A subtest of a test holding it already holds it.
func Hold(t testing.TB, port string) {
	t.Helper()
	if heldByAncestor(t.Name()) {
		return
	}
	path := filepath.Join(os.TempDir(), "acemq-fault-node-"+port+".lock")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		t.Fatalf("faultlock: cannot open %s: %v", path, err)
	}
	if err := lock(f); err != nil {
		_ = f.Close()
		t.Fatalf("faultlock: cannot lock %s: %v", path, err)
	}
	setHolder(t.Name(), true)
	t.Cleanup(func() {
		setHolder(t.Name(), false)
		_ = unlock(f)
		_ = f.Close()
	})
}

func heldByAncestor(name string) bool {
	mu.Lock()
	defer mu.Unlock()
	for h := range holders {
		if name == h || strings.HasPrefix(name, h+"/") {
			return true
		}
	}
	return false
}

func setHolder(name string, held bool) {
	mu.Lock()
	defer mu.Unlock()
	if held {
		holders[name] = true
	} else {
		delete(holders, name)
	}
}
