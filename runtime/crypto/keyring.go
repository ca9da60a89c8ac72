package crypto

import (
	"crypto/aes"
	"crypto/cipher"
	"errors"
	"fmt"
	"slices"
	"sync"
)

// ErrUnknownKey is matched (errors.Is) by the error a Keyring returns for a key
// id it does not hold.
var ErrUnknownKey = errors.New("acemq: the key is not on this keyring")

// Keyring holds the keys a codec seals and opens with; the first given is
// current until Use names another. Safe for concurrent use: Add and Use may
// run while codecs encode and decode. No Keyring prints a secret. Build one
// with NewKeyring: the zero Keyring holds no keys and is not usable.
type Keyring struct {
	s *ringState // behind a pointer so that a copied or printed Keyring shares and hides it
}

type ringState struct {
	mu      sync.RWMutex
	order   []string
	keys    map[string]entry
	current string
}

// entry is a key with its AEAD, built once.
type entry struct {
	key  Key
	aead cipher.AEAD
}

// NewKeyring returns a keyring holding keys, the first of them current. It
// refuses no keys, a duplicate id, and any key Add refuses.
func NewKeyring(keys ...Key) (*Keyring, error) {
	if len(keys) == 0 {
		return nil, errors.New("acemq: a keyring needs at least one key")
	}
	kr := &Keyring{s: &ringState{keys: map[string]entry{}}}
	for _, k := range keys {
		if err := kr.Add(k); err != nil {
			return nil, err
		}
	}
	kr.s.current = keys[0].ID
	return kr, nil
}

// Add puts key on the keyring without making it current, so consumers can
// read it before any producer writes with it. It refuses an invalid key and an
// id already on the keyring. The secret is copied.
func (kr *Keyring) Add(key Key) error {
	if err := key.validate(); err != nil {
		return err
	}
	e, err := newEntry(key.clone())
	if err != nil {
		return err
	}
	kr.s.mu.Lock()
	defer kr.s.mu.Unlock()
	if _, dup := kr.s.keys[key.ID]; dup {
		return fmt.Errorf("acemq: key %q is already on this keyring", key.ID)
	}
	kr.s.keys[key.ID] = e
	kr.s.order = append(kr.s.order, key.ID)
	return nil
}

func newEntry(k Key) (entry, error) {
	block, err := aes.NewCipher(k.Secret)
	if err != nil {
		return entry{}, fmt.Errorf("acemq: key %q: %w", k.ID, err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return entry{}, fmt.Errorf("acemq: key %q: %w", k.ID, err)
	}
	return entry{key: k, aead: aead}, nil
}

// Use makes the key named id current: every message encoded from now on is
// sealed with it. The key must already be on the keyring.
func (kr *Keyring) Use(id string) error {
	kr.s.mu.Lock()
	defer kr.s.mu.Unlock()
	if _, ok := kr.s.keys[id]; !ok {
		return kr.unknownLocked(id)
	}
	kr.s.current = id
	return nil
}

// Current returns the key new messages are sealed with (a copy).
func (kr *Keyring) Current() Key {
	kr.s.mu.RLock()
	defer kr.s.mu.RUnlock()
	return kr.s.keys[kr.s.current].key.clone()
}

// Get returns the key named id (a copy). A missing key is a fatal error that
// names it and the keys the keyring holds, and matches ErrUnknownKey.
func (kr *Keyring) Get(id string) (Key, error) {
	e, err := kr.entry(id)
	return e.key.clone(), err
}

// IDs returns the ids on the keyring in the order they were added.
func (kr *Keyring) IDs() []string {
	kr.s.mu.RLock()
	defer kr.s.mu.RUnlock()
	return slices.Clone(kr.s.order)
}

func (kr *Keyring) entry(id string) (entry, error) {
	kr.s.mu.RLock()
	defer kr.s.mu.RUnlock()
	e, ok := kr.s.keys[id]
	if !ok {
		return entry{}, kr.unknownLocked(id)
	}
	return e, nil
}

func (kr *Keyring) currentEntry() entry {
	kr.s.mu.RLock()
	defer kr.s.mu.RUnlock()
	return kr.s.keys[kr.s.current]
}

// String describes the keyring by its key ids:
// crypto.Keyring{current: "2026-02", keys: ["2026-01" "2026-02"]}.
func (kr Keyring) String() string {
	if kr.s == nil {
		return "crypto.Keyring{}"
	}
	kr.s.mu.RLock()
	defer kr.s.mu.RUnlock()
	return fmt.Sprintf("crypto.Keyring{current: %q, keys: %q}", kr.s.current, kr.s.order)
}

// GoString is String, so %#v hides every secret too.
func (kr Keyring) GoString() string { return kr.String() }

// Format writes String for every verb, so no verb can print a secret.
func (kr Keyring) Format(f fmt.State, verb rune) { writeSafe(f, verb, kr.String()) }
