package main

import (
	"context"
	"errors"
	"net"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/registry"
)

// passwordMarker is in every password these tests use; no byte run of four
// of it may reach a command's output.
const passwordMarker = "Zq7xKp9mW"

// hostilePasswords hold the marker after each reserved character a password
// may hold unencoded, and in the other malformed shapes of a URL.
var hostilePasswords = []string{
	"12/" + passwordMarker, "12?" + passwordMarker, "12#" + passwordMarker,
	passwordMarker + "/x", passwordMarker + "?x", passwordMarker + "#x", "p@" + passwordMarker + "/x",
}

// shows reports the first four-byte run of the marker in text.
func shows(text string) (string, bool) {
	for i := 0; i+4 <= len(passwordMarker); i++ {
		if strings.Contains(text, passwordMarker[i:i+4]) {
			return passwordMarker[i : i+4], true
		}
	}
	return "", false
}

// noLookups makes every DNS lookup fail and counts them until the test ends.
func noLookups(t *testing.T) *atomic.Int64 {
	var n atomic.Int64
	old := net.DefaultResolver
	net.DefaultResolver = &net.Resolver{PreferGo: true, Dial: func(context.Context, string, string) (net.Conn, error) {
		n.Add(1)
		return nil, errors.New("no DNS in this test")
	}}
	t.Cleanup(func() { net.DefaultResolver = old })
	return &n
}

// expectRefusedQuietly runs args and wants exit 2, the advice to
// percent-encode, and no part of the password.
func expectRefusedQuietly(t *testing.T, args ...string) {
	t.Helper()
	code, out, errOut := cli(t, args...)
	if w, ok := shows(out + errOut); ok {
		t.Errorf("%q prints %q of the password:\n%s%s", args, w, out, errOut)
	}
	if code != exitUsage || !strings.Contains(errOut, "percent-encode") {
		t.Errorf("%q: exit %d, want 2 telling to percent-encode:\n%s", args, code, errOut)
	}
}

// forHostilePasswords calls each with a contracts directory and every one
// of hostilePasswords, and fails t if any DNS lookup was made meanwhile.
func forHostilePasswords(t *testing.T, each func(dir, pw string)) {
	t.Helper()
	lookups := noLookups(t)
	dir := contracts(t)
	for _, pw := range hostilePasswords {
		each(dir, pw)
	}
	if n := lookups.Load(); n != 0 {
		t.Errorf("%d DNS lookups: a user name was looked up as a host", n)
	}
}

func TestDLQListRedactsPassword(t *testing.T) {
	forHostilePasswords(t, func(dir, pw string) {
		expectRefusedQuietly(t, "dlq", "list", "--url", "amqp://dnsprobe-user:"+pw+"@127.0.0.1:1/", dir)
		expectRefusedQuietly(t, "dlq", "list", "--url", "amqp://guest:guest@127.0.0.1:1/", "--registry", "http://ci:"+pw+"@127.0.0.1:1", dir)
	})
}

func TestPlanRedactsPassword(t *testing.T) {
	forHostilePasswords(t, func(dir, pw string) {
		expectRefusedQuietly(t, "plan", "--url", "amqp://dnsprobe-user:"+pw+"@127.0.0.1:1/", dir)
		expectRefusedQuietly(t, "plan", "--url", "amqp://guest:guest@127.0.0.1:1/", "--management", "http://dnsprobe-user:"+pw+"@127.0.0.1:1", dir)
	})
}

func TestRegistryCheckRedactsPassword(t *testing.T) {
	forHostilePasswords(t, func(dir, pw string) {
		expectRefusedQuietly(t, "registry", "check", "--url", "http://dnsprobe-user:"+pw+"@127.0.0.1:1", dir)
		t.Setenv(registry.URLEnv, "http://dnsprobe-user:"+pw+"@127.0.0.1:1")
		expectRefusedQuietly(t, "registry", "push", dir)
	})
}

// TestNoCommandPrintsAnyPartOfAPassword runs every command that takes a URL
// with URLs of every shape (reserved characters, a bad escape, no '@', a
// space, unreachable) whose password holds the marker, and scans
// everything printed for it.
func TestNoCommandPrintsAnyPartOfAPassword(t *testing.T) {
	noLookups(t)
	dir := contracts(t)
	malformed := []string{passwordMarker, "a%" + passwordMarker, "a " + passwordMarker, "99" + passwordMarker}
	for _, pw := range append(malformed, hostilePasswords...) {
		amqpURLs := []string{"amqp://u:" + pw + "@127.0.0.1:1/", "amqp://u:" + pw + "@127.0.0.1:1,127.0.0.1:2/v"}
		if strings.Trim(pw, passwordMarker+"a% 9") == "" { // the '@' forgotten (a password of reserved characters would be a vhost)
			amqpURLs = append(amqpURLs, "amqp://u:"+pw+"/")
		}
		httpURL := "http://u:" + pw + "@127.0.0.1:1"
		for _, u := range amqpURLs {
			for _, args := range [][]string{
				{"dlq", "list", "--url", u, dir},
				{"dlq", "show", "--url", u, "q.dlq", dir},
				{"dlq", "redrive", "--url", u, "q.dlq", dir},
				{"plan", "--url", u, dir},
				{"plan", "--url", u, "--management", httpURL, dir},
				{"dlq", "show", "--url", "amqp://guest:guest@127.0.0.1:1/", "--registry", httpURL, "q.dlq", dir},
				{"registry", "check", "--url", httpURL, dir},
				{"registry", "push", "--url", httpURL, dir},
			} {
				code, out, errOut := cli(t, args...)
				if w, ok := shows(out + errOut); ok {
					t.Errorf("%q (exit %d) prints %q of the password:\n%s%s", args, code, w, out, errOut)
				}
			}
		}
	}
}

func TestAsyncAPIServerURLNeverWritesOrPrintsPassword(t *testing.T) {
	dir := contracts(t)
	for _, pw := range hostilePasswords {
		out := t.TempDir()
		code, stdout, errOut := cli(t, "asyncapi", "-o", out, "--server", "prod=amqps://u:"+pw+"@rabbit.example.com/shop", dir)
		if w, ok := shows(stdout + errOut); ok {
			t.Errorf("prints %q of the password:\n%s%s", w, stdout, errOut)
		}
		if code == exitOK {
			t.Errorf("password %q: exit 0; want the server refused", pw)
		}
		code, stdout, errOut = cli(t, "asyncapi", "-o", out, "--server", "amqps://u:"+pw+"@rabbit.example.com/shop", dir)
		if w, ok := shows(stdout + errOut); ok || code == exitOK {
			t.Errorf("a server without its name: exit %d, prints %q:\n%s%s", code, w, stdout, errOut)
		}
	}
}
