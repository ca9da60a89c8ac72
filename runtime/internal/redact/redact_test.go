package redact

import (
	"errors"
	"strings"
	"testing"
)

func TestURLHidesThePasswordOfEveryForm(t *testing.T) {
	for raw, want := range map[string]string{
		"amqp://guest:s3cret@127.0.0.1:5941,127.0.0.1:5942/": "amqp://guest:xxxxx@127.0.0.1:5941,127.0.0.1:5942/",
		"amqps://app:p%2Fss@rabbit:5671/orders?heartbeat=5":  "amqps://app:xxxxx@rabbit:5671/orders?…",
		"http://ci:pa@ss@registry:8081/prefix":               "http://ci:xxxxx@registry:8081/prefix",
		"https://registry.example/":                          "https://registry.example/",
		"amqp://user@host/":                                  "amqp://user@host/",
		"amqp://user:pa/ss@host/":                            "(a URL with unencoded characters in its user name or password, not shown)",
		"user:secret@host:5672":                              "(a URL without a scheme, not shown)",
		"amqp://h/v\nFAKE LOG LINE":                          "amqp://h/v%0AFAKE%20LOG%20LINE",
		"memory://orders":                                    "memory://orders",
		"amqp://u:s3cret@h/#frag":                            "amqp://u:xxxxx@h/?…",
	} {
		if got := URL(raw); got != want {
			t.Errorf("URL(%q) = %q, want %q", raw, got, want)
		}
	}
}

func TestCheckRefusesUnencodedReservedCharactersInUserinfo(t *testing.T) {
	for _, raw := range []string{"amqp://u:a/b@h/", "amqp://u:a?b@h/", "amqp://u:a#b@h/", "http://u/x:p@h", "amqp://u:a/b@c@h/"} {
		if err := Check(raw); !errors.Is(err, ErrNotEncoded) {
			t.Errorf("Check(%q) = %v", raw, err)
		}
	}
	for _, raw := range []string{"amqp://u:a%2Fb@h/", "amqp://u:p@ss@h/v", "amqp://h/", "memory://x", "", "amqp://u:p@h/v?x=1"} {
		if err := Check(raw); err != nil {
			t.Errorf("Check(%q) = %v", raw, err)
		}
	}
	if strings.Contains(ErrNotEncoded.Error(), "%!") {
		t.Errorf("message %q", ErrNotEncoded)
	}
}

// FuzzURLNeverShowsThePassword: whatever the password, URL's result holds
// none of it (beyond what the fixed parts of the URL hold by chance).
func FuzzURLNeverShowsThePassword(f *testing.F) {
	for _, s := range []string{"s3cret", "pa/ss", "a?b#c", "p@ss", "x%2Fy", "12/ab", "\n\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, pass string) {
		if len(pass) < 4 {
			return
		}
		for _, raw := range []string{"amqp://user:" + pass + "@host:5672/v", "https://user:" + pass + "@reg/p?q=1"} {
			got := URL(raw)
			if strings.Contains(got, pass) && !strings.Contains(strings.ReplaceAll(raw, pass, ""), pass) &&
				!strings.Contains("amqp://user:xxxxx@host:5672/v https://user:xxxxx@reg/p?…", pass) {
				t.Fatalf("URL(%q) = %q shows the password", raw, got)
			}
		}
	})
}
