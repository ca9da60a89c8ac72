package avro

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"time"
)

// ErrSchemaNotFound is returned (possibly wrapped) by a Registry for an id or
// subject it does not hold.
var ErrSchemaNotFound = errors.New("acemq: no such schema")

// FormatAvro is the format Registered registers its schema under.
const FormatAvro = "avro"

// Registry stores schemas under subjects and numbers them. Implementations
// must be safe for concurrent use.
type Registry interface {
	// Register stores definition under subject and returns it with its id.
	// Registering a schema the subject already holds (the same schema in
	// Avro's canonical form) returns the existing definition and id.
	Register(ctx context.Context, subject, format, definition string) (SchemaDefinition, error)
	// ByID returns the schema registered under id, or ErrSchemaNotFound.
	ByID(ctx context.Context, id int) (SchemaDefinition, error)
	// Latest returns the newest version under subject, or ErrSchemaNotFound.
	Latest(ctx context.Context, subject string) (SchemaDefinition, error)
	// Versions returns every version under subject, oldest first, or
	// ErrSchemaNotFound for a subject that holds none.
	Versions(ctx context.Context, subject string) ([]SchemaDefinition, error)
}

// SchemaDefinition is one registered schema. A field a registry does not
// report is left zero (the Confluent API, for one, reports no registration
// time).
type SchemaDefinition struct {
	// ID is the registry's number for the schema; what the frame carries.
	ID int
	// Subject is the subject the schema was registered under.
	Subject string
	// Version counts the subject's schemas from 1.
	Version int
	// Format is "avro" for an Avro schema.
	Format string
	// Definition is the schema text as registered.
	Definition string
	// Fingerprint is the hex SHA-256 of the schema's Avro canonical form (of
	// the exact text, for a format other than Avro).
	Fingerprint string
	// RegisteredAt is when the registry stored the schema.
	RegisteredAt time.Time
}

// Fingerprint returns the hex SHA-256 of definition's Avro canonical form, so
// two spellings of one schema (whitespace, key order, docs) share it. A
// format other than "avro" (or "") is fingerprinted byte for byte.
func Fingerprint(format, definition string) (string, error) {
	if format != FormatAvro && format != "" {
		sum := sha256.Sum256([]byte(definition))
		return hex.EncodeToString(sum[:]), nil
	}
	s, err := parse(definition)
	if err != nil {
		return "", err
	}
	fp := s.Fingerprint()
	return hex.EncodeToString(fp[:]), nil
}
