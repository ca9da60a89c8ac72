// Package ids holds identifiers shared by the services.
package ids

import (
	"encoding/base64"
	"fmt"
)

// Digest is an 8-byte fingerprint, written as base64 text.
type Digest [8]byte

// MarshalText returns d in base64.
func (d Digest) MarshalText() ([]byte, error) {
	return []byte(base64.StdEncoding.EncodeToString(d[:])), nil
}

// UnmarshalText reads 8 bytes in base64 into d.
func (d *Digest) UnmarshalText(text []byte) error {
	b, err := base64.StdEncoding.DecodeString(string(text))
	if err != nil || len(b) != len(d) {
		return fmt.Errorf("ids: a digest is 8 bytes in base64")
	}
	copy(d[:], b)
	return nil
}
