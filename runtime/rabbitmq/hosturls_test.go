package rabbitmq

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

func TestHostURLsSplitsAMultiHostURLInTheOrderWritten(t *testing.T) {
	got, err := HostURLs("amqp://u:p@h1:5831,h2:5832/shop?heartbeat=5")
	want := []string{"amqp://u:p@h1:5831/shop?heartbeat=5", "amqp://u:p@h2:5832/shop?heartbeat=5"}
	if err != nil || !slices.Equal(got, want) {
		t.Fatalf("HostURLs = %q, %v; want %q", got, err, want)
	}
	if got, err := HostURLs("amqps://h/"); err != nil || !slices.Equal(got, []string{"amqps://h/"}) {
		t.Fatalf("one host: %q, %v", got, err)
	}
}

func TestHostURLsRefusesWithoutQuotingThePassword(t *testing.T) {
	for _, raw := range []string{"amqp://u:s3cret@h1:99999/", "amqp://u:s3cret@h1,,h2/", "http://u:s3cret@h/", "amqp://u:s3/cret@h/"} {
		_, err := HostURLs(raw)
		if err == nil || strings.Contains(err.Error(), "s3") || !strings.HasPrefix(err.Error(), "rabbitmq: ") {
			t.Errorf("HostURLs(%q) = %v; want a prefixed error without the password", raw, err)
		}
	}
	if _, err := HostURLs("amqp://u:s3/cret@h/"); !errors.Is(err, acemq.ErrURLCredentialsNotEncoded) {
		t.Errorf("an unencoded '/': %v; want acemq.ErrURLCredentialsNotEncoded", err)
	}
}
