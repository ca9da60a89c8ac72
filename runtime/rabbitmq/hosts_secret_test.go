package rabbitmq

import (
	"context"
	"errors"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

// leaks reports the first 4-byte window of secret that msg contains.
func leaks(msg, secret string) (string, bool) {
	for i := 0; i+4 <= len(secret); i++ {
		if strings.Contains(msg, secret[i:i+4]) {
			return secret[i : i+4], true
		}
	}
	return "", false
}

// countLookups makes every DNS lookup of the process fail and counts them
// until the test ends.
func countLookups(t *testing.T) *atomic.Int64 {
	var n atomic.Int64
	old := net.DefaultResolver
	net.DefaultResolver = &net.Resolver{PreferGo: true, Dial: func(context.Context, string, string) (net.Conn, error) {
		n.Add(1)
		return nil, errors.New("no DNS in this test")
	}}
	t.Cleanup(func() { net.DefaultResolver = old })
	return &n
}

func TestConnectNeverPrintsPasswordWithReservedChars(t *testing.T) {
	lookups := countLookups(t)
	for _, pass := range []string{
		"Zq7x/Kp9mW", "Zq7x?Kp9mW", "Zq7x#Kp9mW", "12/Kp9mWzz", "Zq7x/Kp9@mW", "Zq7x@Kp9/mW?v#w",
	} {
		for _, url := range []string{
			"amqp://dnsprobe-user:" + pass + "@127.0.0.1:1/",
			"amqps://dnsprobe-user:" + pass + "@127.0.0.1:1,127.0.0.1:2/vhost?heartbeat=5",
			"amqp://dnsprobe-" + pass + ":pw@127.0.0.1:1/",
		} {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			_, err := acemq.Connect(ctx, url)
			cancel()
			if !errors.Is(err, acemq.ErrURLCredentialsNotEncoded) || !strings.Contains(err.Error(), "percent-encode") {
				t.Errorf("Connect(%q) = %v, want ErrURLCredentialsNotEncoded telling to percent-encode", url, err)
				continue
			}
			if w, ok := leaks(err.Error(), pass); ok {
				t.Errorf("Connect(%q) = %q: prints %q of the password", url, err, w)
			}
			if _, err := Dial(context.Background(), url); err == nil {
				t.Errorf("Dial(%q) succeeded", url)
			} else if w, ok := leaks(err.Error(), pass); ok {
				t.Errorf("Dial(%q) = %q: prints %q of the password", url, err, w)
			}
		}
	}
	if n := lookups.Load(); n != 0 {
		t.Errorf("%d DNS lookups: a user name was looked up as a host", n)
	}
}

func TestMalformedURLErrorsQuoteNoPartOfThePassword(t *testing.T) {
	countLookups(t)
	for _, url := range []string{
		"amqp://user:Zq7x%Kp9mW@127.0.0.1:1/", // a bad escape
		"amqp://user:Zq7xKp9mW/",              // no '@': the password reads as a port
		"amqp://user:Zq7x Kp9mW@127.0.0.1:1/", // a space
		"amqp://user:Zq7xKp9mWamqps://h/",     // a second scheme
		"Zq7xKp9mW@h1://x",                    // no real scheme
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_, err := acemq.Connect(ctx, url)
		cancel()
		if err == nil {
			t.Errorf("Connect(%q) succeeded", url)
			continue
		}
		if w, ok := leaks(err.Error(), "Zq7xKp9mW"); ok {
			t.Errorf("Connect(%q) = %q: prints %q of the password", url, err, w)
		}
		if w, ok := leaks(err.Error(), "Zq7x%Kp9mW"); ok {
			t.Errorf("Connect(%q) = %q: prints %q of the password", url, err, w)
		}
	}
}

// FuzzParseHostsNeverQuotesThePassword: for a password without '@' (which
// would move the host), neither parseHosts' error nor the URL it shows
// holds the password.
func FuzzParseHostsNeverQuotesThePassword(f *testing.F) {
	for _, s := range []string{"s3cretpw", "pa/sswor", "12/Kp9mWzz", "a?b#cdefg", "Zq7x%Kp9mW", "Zq7x Kp9mW"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, pass string) {
		if len(pass) < 8 || strings.Contains(pass, "@") {
			return
		}
		for _, raw := range []string{"amqp://u:" + pass + "@127.0.0.1:5672/v", "amqps://u:" + pass + "@h1,h2:5671/"} {
			l, err := parseHosts(raw)
			shown := ""
			if err != nil {
				shown = err.Error()
			} else {
				shown = l.String()
			}
			if strings.Contains(shown, pass) {
				t.Fatalf("parseHosts(%q) shows the password: %q", raw, shown)
			}
		}
	})
}
