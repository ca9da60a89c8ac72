package crypto

import (
	"github.com/acemq/acemq-gen/runtime/acemq"
)

const (
	magic     = 0xAE // first byte of every frame
	version   = 0x01 // the frame version this package writes and reads
	nonceSize = 12   // AES-GCM standard nonce
	tagSize   = 16   // AES-GCM tag
)

// frame is a parsed encrypted body. The slices alias the body.
type frame struct {
	header []byte // 0xAE 0x01 len keyID: the associated data
	keyID  []byte // aliases body; a string only when an error needs it
	nonce  []byte
	sealed []byte // ciphertext || tag
}

// appendHeader appends 0xAE 0x01 len(keyID) keyID to dst.
func appendHeader(dst []byte, keyID string) []byte {
	dst = append(dst, magic, version, byte(len(keyID)))
	return append(dst, keyID...)
}

// parseFrame splits body into its parts; every failure is fatal and worded
// as the family words it.
func parseFrame(body []byte) (frame, error) {
	h, err := headerLen(body)
	if err != nil {
		return frame{}, err
	}
	return frame{header: body[:h], keyID: body[3:h], nonce: body[h : h+nonceSize], sealed: body[h+nonceSize:]}, nil
}

// headerLen returns the length of body's header (0xAE 0x01 len keyID) after
// checking the nonce and tag follow it. A well-formed frame costs a few
// comparisons; only a malformed one goes through the checks that word its
// error.
func headerLen(body []byte) (int, error) {
	if len(body) > 3 && body[0] == magic && body[1] == version && body[2] != 0 {
		if h := 3 + int(body[2]); len(body) >= h+nonceSize+tagSize {
			return h, nil
		}
	}
	return 0, frameError(body)
}

// frameError words why body, which parseFrame refused, is not a frame.
func frameError(body []byte) error {
	if err := checkPrefix(body); err != nil {
		return err
	}
	n := int(body[2])
	if n == 0 {
		return acemq.Fatalf("acemq: this message carries no key id, so nothing can say which key opens it")
	}
	if len(body) < 3+n {
		return acemq.Fatalf("acemq: the key id on this message is truncated")
	}
	_, err := splitBody(frame{header: body[:3+n], keyID: body[3 : 3+n]}, body[3+n:])
	return err
}

// splitBody fills f's nonce and sealed parts from rest, the bytes after the
// header.
func splitBody(f frame, rest []byte) (frame, error) {
	if len(rest) < nonceSize+tagSize {
		return frame{}, acemq.Fatalf("acemq: this message, encrypted with key %q, is too short to hold a %d-byte nonce and a %d-byte tag; it was truncated", f.keyID, nonceSize, tagSize)
	}
	f.nonce, f.sealed = rest[:nonceSize], rest[nonceSize:]
	return f, nil
}

// checkPrefix checks the magic byte, the version byte and the key id length
// byte are there.
func checkPrefix(body []byte) error {
	switch {
	case len(body) == 0:
		return acemq.Fatalf("acemq: this message was not written by crypto.Codec — it is empty, and an encrypted body begins 0xAE")
	case body[0] != magic:
		return acemq.Fatalf("acemq: this message was not written by crypto.Codec — it begins 0x%02X, and an encrypted body begins 0xAE", body[0])
	case len(body) < 2:
		return acemq.Fatalf("acemq: this message was not written by crypto.Codec — it ends after the 0xAE marker, before the format version")
	case body[1] != version:
		return acemq.Fatalf("acemq: this message is encryption format %d and this library reads %d", body[1], version)
	case len(body) < 3:
		return acemq.Fatalf("acemq: this message carries no key id, so nothing can say which key opens it")
	}
	return nil
}

// KeyIDOf returns the id of the key that sealed body, without decrypting it.
// A body that is not a frame is a fatal error, worded as Decode words it.
func KeyIDOf(body []byte) (string, error) {
	f, err := parseFrame(body)
	return string(f.keyID), err
}
