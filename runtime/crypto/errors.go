package crypto

import (
	"fmt"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

// unknownKeyError is the family's missing-key message; it matches ErrUnknownKey.
type unknownKeyError struct {
	id   string
	held []string
}

// Error is the family's wording, naming the key and the keys held.
func (e *unknownKeyError) Error() string {
	return fmt.Sprintf("acemq: this message was encrypted with key %q, which is not on this keyring (it holds %s). "+
		"Retrying will not help; add the key or dead-letter the message", e.id, e.held)
}

// Is makes the error match ErrUnknownKey.
func (e *unknownKeyError) Is(target error) bool { return target == ErrUnknownKey }

// unknown returns the fatal missing-key error for a keyring in state s.
func (s *ringSnap) unknown(id string) error {
	return acemq.Fatal(&unknownKeyError{id: id, held: append([]string(nil), s.order...)})
}
