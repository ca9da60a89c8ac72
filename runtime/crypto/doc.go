// Package crypto encrypts message bodies with AES-GCM in the AceMQ family's
// frame, byte for byte, so a producer in Java, .NET, Python or Ruby and a Go
// consumer can share a key.
//
//	payload ──inner.Encode──▶ plaintext ──AES-GCM(current key)──▶ frame ──▶ broker
//	broker ──▶ frame ──key id──▶ Keyring.Get ──AES-GCM open──▶ plaintext ──inner.Decode──▶ *dst
//
// The frame (version 1):
//
//	0xAE | 0x01 | len(keyID) | keyID (UTF-8) | nonce (12 bytes) | ciphertext || tag (16 bytes)
//
// with the header bytes 0xAE 0x01 len keyID bound as associated data, so a key
// id swapped in the broker fails to open. Every decode failure is fatal (the
// same bytes fail the same way every time) and says which key was involved.
//
// Headers travel in the clear: the broker routes and retries by them. No value
// of this package — Key, Keyring, Codec — prints a secret under any fmt verb.
//
// A Keyring holds several keys so that a rotation can overlap: Add the new key
// everywhere first, then Use it. Generated code finds the keyring on the
// connection: pass WithKeyring to acemq.Connect and read it with KeyringFrom.
package crypto
