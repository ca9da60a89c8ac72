package avro

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/acemq/acemq-gen/runtime/acemq"
	hamba "github.com/hamba/avro/v2"
)

// Content types the two modes write.
const (
	// ContentTypeFixed is written by a codec built with Of.
	ContentTypeFixed = "avro/binary"
	// ContentTypeRegistered is written by a codec built with Registered.
	ContentTypeRegistered = "application/vnd.acemq.avro"
)

// Codec encodes and decodes one Avro schema, unframed (Of) or in Confluent
// framing against a registry (Registered). Safe for concurrent use.
type Codec struct {
	text   string       // the schema as given
	schema hamba.Schema // parsed with the codec's own cache
	api    hamba.API    // the codec's own frozen API
	reg    *registered  // nil for Of
}

var _ acemq.Codec = (*Codec)(nil)

// Of returns a codec that writes schema's binary encoding with no framing
// (content type avro/binary). Both ends must hold the same schema: nothing on
// the wire says which one wrote a message.
func Of(schema string) (*Codec, error) {
	s, err := parse(schema)
	if err != nil {
		return nil, fmt.Errorf("acemq: this is not a usable Avro schema: %w", err)
	}
	return &Codec{text: schema, schema: s, api: newAPI()}, nil
}

// Schema returns the schema text the codec writes with, as it was given.
func (c *Codec) Schema() string { return c.text }

// ContentType returns avro/binary for Of and application/vnd.acemq.avro for
// Registered.
func (c *Codec) ContentType() string {
	if c.reg == nil {
		return ContentTypeFixed
	}
	return ContentTypeRegistered
}

// CanDecode reports whether this codec's mode reads contentType
// (case-insensitive): its own content type, application/avro* or any +avro
// suffix type. Of refuses application/vnd.acemq.avro and Registered refuses
// avro/binary, because handing one mode's bytes to the other decodes wrong
// values silently. False for "".
func (c *Codec) CanDecode(contentType string) bool {
	ct := strings.ToLower(strings.TrimSpace(contentType))
	mt, _, _ := strings.Cut(ct, ";")
	mt = strings.TrimSpace(mt)
	return mt == c.ContentType() || strings.HasPrefix(ct, "application/avro") || strings.HasSuffix(mt, "+avro")
}

// Encode writes payload (a struct with avro tags, a map, or a value of the
// schema's type) with the codec's schema; Registered prefixes the frame,
// registering the schema on first use. A payload the schema cannot write is
// a fatal error; a registry that cannot be reached is not.
func (c *Codec) Encode(payload any) ([]byte, error) {
	body, err := c.api.Marshal(c.schema, payload)
	if err != nil {
		return nil, acemq.Fatalf("acemq: a %T cannot be written with Avro schema %s: %w", payload, fullName(c.schema), err)
	}
	if c.reg == nil {
		return body, nil
	}
	id, err := c.SchemaID(context.Background())
	if err != nil {
		return nil, err
	}
	return appendFrame(make([]byte, 0, frameSize+len(body)), id, body), nil
}

// Decode reads body into dst, a non-nil pointer. Of decodes with its schema;
// Registered reads the frame, looks the writer's schema up once per id and,
// with ReaderSchema, resolves it onto the reader's once per id. A body that
// cannot decode is a fatal error; a registry that cannot be reached is not.
func (c *Codec) Decode(body []byte, dst any) error {
	if c.reg == nil {
		return c.unmarshal(c.schema, body, dst, fullName(c.schema))
	}
	id, payload, err := splitFrame(body)
	if err != nil {
		return err
	}
	p, err := c.reg.plan(id)
	if err != nil {
		return err
	}
	return c.unmarshal(p, payload, dst, fmt.Sprintf("%d", id))
}

func (c *Codec) unmarshal(s hamba.Schema, body []byte, dst any, schemaName string) error {
	if err := c.read(s, body, dst); err != nil {
		return acemq.Fatalf("acemq: this message is not Avro that reads as %T with schema %s: %w", dst, schemaName, err)
	}
	return nil
}

var (
	errTruncated = errors.New("the body ends before the record does")
	errTrailing  = errors.New("bytes are left over after the record")
	errNilDst    = errors.New("the destination is nil")
)

// read decodes exactly one value from body. Unlike hamba's Unmarshal it
// refuses a body that ends early (Unmarshal reads the missing bytes as zeros)
// or runs on past the value (another mode's or another schema's bytes).
func (c *Codec) read(s hamba.Schema, body []byte, dst any) error {
	if dst == nil {
		return errNilDst
	}
	r := hamba.NewReader(nil, 0, hamba.WithReaderConfig(c.api)).Reset(body)
	r.ReadVal(s, dst)
	switch {
	case errors.Is(r.Error, io.EOF) || errors.Is(r.Error, io.ErrUnexpectedEOF):
		return errTruncated
	case r.Error != nil:
		return r.Error
	}
	if r.Peek(); r.Error == nil {
		return errTrailing
	}
	return nil
}

// SchemaID returns the registry id of the codec's schema, registering it
// under the codec's subject on first call (Encode calls it too). The id is
// cached; a failure is not, so a later call retries. A codec built with Of
// has no id.
func (c *Codec) SchemaID(ctx context.Context) (int, error) {
	if c.reg == nil {
		return 0, errNoID
	}
	return c.reg.schemaID(ctx, c.text)
}
