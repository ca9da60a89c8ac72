package crypto

import (
	"crypto/aes"
	"crypto/cipher"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
)

// ErrUnknownKey is matched (errors.Is) by the error a Keyring returns for a key
// id it does not hold.
var ErrUnknownKey = errors.New("acemq: the key is not on this keyring")

// Keyring holds the keys a codec seals and opens with; the first given is
// current until Use names another. Safe for concurrent use: Add and Use may
// run while codecs encode and decode, which read the keyring without taking a
// lock. No Keyring prints a secret. Build one with NewKeyring: the zero
// Keyring holds no keys and is not usable.
type Keyring struct {
	s *ringState // behind a pointer so that a copied or printed Keyring shares and hides it
}

// ringState publishes an immutable snapshot; Add and Use replace it under mu.
type ringState struct {
	mu   sync.Mutex // serialises Add and Use
	snap atomic.Pointer[ringSnap]
}

// ringSnap is one version of the keyring. It is never modified once stored.
type ringSnap struct {
	order   []string
	keys    map[string]*entry
	current *entry
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
	kr := &Keyring{s: &ringState{}}
	kr.s.snap.Store(&ringSnap{keys: map[string]*entry{}})
	for _, k := range keys {
		if err := kr.Add(k); err != nil {
			return nil, err
		}
	}
	return kr, kr.Use(keys[0].ID)
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
	old := kr.s.snap.Load()
	if _, dup := old.keys[key.ID]; dup {
		return fmt.Errorf("acemq: key %q is already on this keyring", key.ID)
	}
	next := &ringSnap{order: append(slices.Clone(old.order), key.ID), keys: maps.Clone(old.keys), current: old.current}
	next.keys[key.ID] = e
	kr.s.snap.Store(next)
	return nil
}

func newEntry(k Key) (*entry, error) {
	block, err := aes.NewCipher(k.Secret)
	if err != nil {
		return nil, fmt.Errorf("acemq: key %q: %w", k.ID, err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("acemq: key %q: %w", k.ID, err)
	}
	return &entry{key: k, aead: aead}, nil
}

// Use makes the key named id current: every message encoded from now on is
// sealed with it. The key must already be on the keyring.
func (kr *Keyring) Use(id string) error {
	kr.s.mu.Lock()
	defer kr.s.mu.Unlock()
	old := kr.s.snap.Load()
	e, ok := old.keys[id]
	if !ok {
		return old.unknown(id)
	}
	kr.s.snap.Store(&ringSnap{order: old.order, keys: old.keys, current: e})
	return nil
}

// Current returns the key new messages are sealed with (a copy).
func (kr *Keyring) Current() Key { return kr.currentEntry().key.clone() }

// Get returns the key named id (a copy). A missing key is a fatal error that
// names it and the keys the keyring holds, and matches ErrUnknownKey.
func (kr *Keyring) Get(id string) (Key, error) {
	e, err := kr.entry([]byte(id))
	if err != nil {
		return Key{}, err
	}
	return e.key.clone(), nil
}

// IDs returns the ids on the keyring in the order they were added.
func (kr *Keyring) IDs() []string { return slices.Clone(kr.s.snap.Load().order) }

// entry returns the key named id; the lookup does not allocate, and the
// current key, which seals most messages, is found without hashing.
func (kr *Keyring) entry(id []byte) (*entry, error) {
	snap := kr.s.snap.Load()
	if cur := snap.current; cur != nil && string(id) == cur.key.ID {
		return cur, nil
	}
	e, ok := snap.keys[string(id)]
	if !ok {
		return nil, snap.unknown(string(id))
	}
	return e, nil
}

func (kr *Keyring) currentEntry() *entry { return kr.s.snap.Load().current }

// String describes the keyring by its key ids:
// crypto.Keyring{current: "2026-02", keys: ["2026-01" "2026-02"]}.
func (kr Keyring) String() string {
	if kr.s == nil {
		return "crypto.Keyring{}"
	}
	snap := kr.s.snap.Load()
	return fmt.Sprintf("crypto.Keyring{current: %q, keys: %q}", snap.current.key.ID, snap.order)
}

// GoString is String, so %#v hides every secret too.
func (kr Keyring) GoString() string { return kr.String() }

// Format writes String for every verb, so no verb can print a secret.
func (kr Keyring) Format(f fmt.State, verb rune) { writeSafe(f, verb, kr.String()) }
