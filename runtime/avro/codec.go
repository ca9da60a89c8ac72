package avro

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/internal/decodelimit"
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
	reg    *registered  // nil for Of
	guard  *gnode       // the compiled guard walk when decoding needs it, else nil

	avroAPI  codecAPI  // the codec's own frozen API, fields named by avro tags
	jsonOnce sync.Once // builds jsonAPI
	jsonAPI  *codecAPI // fields named by json tags, for types with no avro tag
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
	return &Codec{text: schema, schema: s, avroAPI: codecAPI{api: newAPI()}, guard: guarded(s)}, nil
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

// Encode writes payload (a struct with avro tags, or with json tags and no
// avro tag anywhere in it, a map, or a value of the schema's type) with the codec's schema; Registered prefixes the frame,
// registering the schema on first use. A payload the schema cannot write is
// a fatal error; a registry that cannot be reached is not. A panicking
// registry is the error "acemq: registering the schema of subject <s>: the
// schema registry panicked: <value>", and the next Encode asks again.
func (c *Codec) Encode(payload any) ([]byte, error) {
	if c.reg == nil {
		return c.write(payload, 0)
	}
	body, err := c.write(payload, frameSize)
	if err != nil {
		return nil, err
	}
	id, err := c.SchemaID(context.Background())
	if err != nil {
		return nil, err
	}
	putFrame(body, id)
	return body, nil
}

// Decode reads body into dst, a non-nil pointer. A body longer than the
// process-wide acemq.DecodeLimits MaxBody is a fatal error; nesting and
// item counts are bounded by MaxDepth and MaxArrayItems. Of decodes with its schema;
// Registered reads the frame, looks the writer's schema up once per id and,
// with ReaderSchema, resolves it onto the reader's once per id. A body that
// cannot decode is a fatal error; a registry that cannot be reached is not.
// A registry that panics looking the id up is a fatal error ("acemq: looking
// up schema <id>: the schema registry panicked: <value>"), not remembered:
// the next message with that id asks again.
func (c *Codec) Decode(body []byte, dst any) error {
	if err := decodelimit.Process().CheckBody("avro", body); err != nil {
		return err
	}
	if c.reg == nil {
		if err := c.read(plan{decode: c.schema, guard: c.guard}, body, dst); err != nil {
			return decodeError(dst, fullName(c.schema), err)
		}
		return nil
	}
	id, payload, err := splitFrame(body)
	if err != nil {
		return err
	}
	p, err := c.reg.plan(id)
	if err != nil {
		return err
	}
	if err := c.read(p, payload, dst); err != nil {
		return decodeError(dst, strconv.Itoa(id), err)
	}
	return nil
}

func decodeError(dst any, schemaName string, err error) error {
	return acemq.Fatalf("acemq: this message is not Avro that reads as %T with schema %s: %w", dst, schemaName, err)
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
