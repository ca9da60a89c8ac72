package main

import "testing"

func TestRedactedHidesThePasswordOfEveryForm(t *testing.T) {
	for raw, want := range map[string]string{
		"amqp://guest:s3cret@127.0.0.1:5941,127.0.0.1:5942/": "amqp://guest:xxxxx@127.0.0.1:5941,127.0.0.1:5942/",
		"amqps://user@host:5671/vhost":                       "amqps://user@host:5671/vhost",
		"amqp://host:5672/":                                  "amqp://host:5672/",
		"amqp://guest:12/s3cret@127.0.0.1:5941/":             "(a URL with unencoded characters in its user name or password, not shown)",
	} {
		if got := redacted(raw); got != want {
			t.Errorf("redacted(%q) = %q, want %q", raw, got, want)
		}
	}
}
