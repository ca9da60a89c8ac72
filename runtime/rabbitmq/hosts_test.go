package rabbitmq

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

func TestAURLListingSeveralHostsGivesEachTheCredentialsVhostAndQuery(t *testing.T) {
	l, err := parseHosts("amqps://app:s3cret@rabbit-1:5671,rabbit-2,[::1]:5673/orders?heartbeat=5")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"amqps://app:s3cret@rabbit-1:5671/orders?heartbeat=5",
		"amqps://app:s3cret@rabbit-2/orders?heartbeat=5",
		"amqps://app:s3cret@[::1]:5673/orders?heartbeat=5",
	}
	if strings.Join(l.urls, " ") != strings.Join(want, " ") {
		t.Fatalf("urls = %q, want %q", l.urls, want)
	}
	if got := l.String(); got != "amqps://rabbit-1:5671,rabbit-2:5671,::1:5673/orders" {
		t.Fatalf("String() = %q, want every host with its port and no password", got)
	}
	one, err := parseHosts("amqp://guest:guest@localhost/")
	if err != nil || len(one.urls) != 1 || one.String() != "amqp://localhost:5672/" {
		t.Fatalf("one host: %v %q", err, one.String())
	}
}

func TestABadHostListFailsNamingTheHostAndNeverThePassword(t *testing.T) {
	for _, c := range []struct{ name, url, want string }{
		{"empty host", "amqp://u:m4lformed-secret@h1:5672,,h3:5672/", "host 2 of 3 is empty"},
		{"trailing comma", "amqp://u:m4lformed-secret@h1:5672,/", "host 2 of 2 is empty"},
		{"no host at all", "amqp://u:m4lformed-secret@/", "the host is empty"},
		{"bad port", "amqp://u:m4lformed-secret@h1:5672,h2:abc/", "host 2 of 2 (h2:abc) is not valid: invalid port"},
		{"port out of range", "amqp://u:m4lformed-secret@h1:99999/", "port 99999 is out of range"},
		{"mixed schemes", "amqp://u:m4lformed-secret@h1:5672,amqps://h2:5671/", "mixes schemes"},
		{"other scheme", "http://u:m4lformed-secret@h1/", `scheme "http" is neither amqp nor amqps`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Dial(context.Background(), c.url)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Dial(%s) = %v, want an error containing %q", c.name, err, c.want)
			}
			if strings.Contains(err.Error(), "m4lformed-secret") {
				t.Fatalf("the error quotes the password: %v", err)
			}
		})
	}
}

// TestNoHostAnsweringFailsConnectNamingEveryHostWithoutThePassword: the
// error of a multi-host dial lists each host and its failure.
func TestNoHostAnsweringFailsConnectNamingEveryHostWithoutThePassword(t *testing.T) {
	a, b := closedPort(t), closedPort(t)
	url := "amqp://u:n0-such-secret@" + a + "," + b + "/"
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := acemq.Connect(ctx, url)
	if err == nil {
		t.Fatal("Connect to two closed ports succeeded")
	}
	msg := err.Error()
	if strings.Contains(msg, "n0-such-secret") {
		t.Fatalf("the error quotes the password: %v", err)
	}
	for _, want := range []string{"acemq: cannot connect", "no host of 2 answered", a + ": ", b + ": "} {
		if !strings.Contains(msg, want) {
			t.Fatalf("err = %q, want it to contain %q", msg, want)
		}
	}
}

// TestRedialsStartAfterTheLostHostAndWrapAround: the host a redial tries
// first is the one after the host whose connection was lost.
func TestRedialsStartAfterTheLostHostAndWrapAround(t *testing.T) {
	l, err := parseHosts("amqp://h1,h2,h3/")
	if err != nil {
		t.Fatal(err)
	}
	tr := &Transport{hosts: l}
	for at, want := range []int{1, 2, 0} {
		tr.setAt(at)
		if got := tr.nextHost(); got != want {
			t.Fatalf("after losing host %d the redial starts at %d, want %d", at, got, want)
		}
	}
}

func TestShuffleHostsKeepsEveryHostWithItsURL(t *testing.T) {
	l, err := parseHosts("amqp://h1,h2,h3,h4,h5/")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	moved := false
	for range 50 {
		s := l.shuffled()
		for i := range s.urls {
			if !strings.Contains(s.urls[i], strings.TrimSuffix(s.hosts[i], ":5672")) {
				t.Fatalf("host %q was given the URL %q", s.hosts[i], s.urls[i])
			}
			seen[s.hosts[i]] = true
		}
		moved = moved || strings.Join(s.hosts, ",") != strings.Join(l.hosts, ",")
	}
	if len(seen) != 5 || !moved {
		t.Fatalf("50 shuffles kept %d hosts and moved one: %v", len(seen), moved)
	}
	cfg := defaultConfig()
	if err := applyForDial(ShuffleHosts(), &cfg); err != nil || cfg.order != hostsShuffled {
		t.Fatalf("ShuffleHosts on Dial: %v, order %v", err, cfg.order)
	}
	ext, err := acemq.Connect(context.Background(), "memory://", ShuffleHosts())
	if err != nil {
		t.Fatal(err)
	}
	if c, err := configFrom(ext.Extensions()); err != nil || c.order != hostsShuffled {
		t.Fatalf("ShuffleHosts through Connect: %v, order %v", err, c.order)
	}
}

// closedPort returns a loopback host:port nothing listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	return addr
}
