package acemq

import (
	"regexp"
	"testing"
)

var uuidV4 = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

func TestNewUUIDIsVersion4WithTheRFCVariant(t *testing.T) {
	for range 1000 {
		id := NewUUID()
		if len(id) != 36 || id[14] != '4' || !uuidV4.MatchString(id) {
			t.Fatalf("NewUUID() = %q, not a version 4 UUID", id)
		}
	}
}

func TestNewUUIDDoesNotRepeat(t *testing.T) {
	seen := map[string]bool{}
	for range 10000 {
		id := NewUUID()
		if seen[id] {
			t.Fatalf("NewUUID repeated %q", id)
		}
		seen[id] = true
	}
}

func TestFormatUUIDPlacesTheDashes(t *testing.T) {
	var b [16]byte
	for i := range b {
		b[i] = byte(i)
	}
	if got, want := formatUUID(b), "00010203-0405-0607-0809-0a0b0c0d0e0f"; got != want {
		t.Errorf("formatUUID = %q, want %q", got, want)
	}
}
