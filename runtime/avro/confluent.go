package avro

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

// ConfluentContentType is the media type the Confluent Schema Registry API
// speaks.
const ConfluentContentType = "application/vnd.schemaregistry.v1+json"

// ConfluentRegistry is a Registry backed by a Confluent Schema Registry (or
// a server speaking its REST API: Redpanda, Karapace, Apicurio's ccompat).
// Safe for concurrent use.
//
// The API reports no registration time, so RegisteredAt is always zero; it
// reports no version when registering or looking up by id, so Version is
// zero from Register and ByID. Fingerprint is computed locally.
type ConfluentRegistry struct {
	base   string // without a trailing slash
	client *http.Client
	user   string
	pass   string
	auth   bool
}

var _ Registry = (*ConfluentRegistry)(nil)

// ConfluentOption configures NewConfluentRegistry.
type ConfluentOption func(*ConfluentRegistry)

// WithBasicAuth sends user and password with every request (HTTP basic
// authentication). Default: no credentials.
func WithBasicAuth(user, password string) ConfluentOption {
	return func(r *ConfluentRegistry) { r.user, r.pass, r.auth = user, password, true }
}

// WithHTTPClient sends requests through client (for TLS settings, proxies,
// timeouts). Default: an http.Client with a 10-second timeout.
func WithHTTPClient(client *http.Client) ConfluentOption {
	return func(r *ConfluentRegistry) {
		if client != nil {
			r.client = client
		}
	}
}

// NewConfluentRegistry returns a client for the registry at baseURL, an
// http or https URL (a path prefix is kept).
func NewConfluentRegistry(baseURL string, opts ...ConfluentOption) (*ConfluentRegistry, error) {
	if err := acemq.CheckURL(baseURL); err != nil {
		return nil, err
	}
	u, err := url.Parse(baseURL)
	if err != nil { // url.Parse's error quotes the URL, password included
		return nil, fmt.Errorf("acemq: the schema registry URL %s does not parse", acemq.RedactURL(baseURL))
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("acemq: the schema registry URL %s is not an http or https URL", acemq.RedactURL(baseURL))
	}
	r := &ConfluentRegistry{base: strings.TrimRight(baseURL, "/"), client: &http.Client{Timeout: 10 * time.Second}}
	for _, opt := range opts {
		opt(r)
	}
	return r, nil
}

// String names the registry by its URL, without credentials.
func (r *ConfluentRegistry) String() string {
	return "avro.ConfluentRegistry(" + acemq.RedactURL(r.base) + ")"
}

// GoString is String, so %#v prints no password either.
func (r *ConfluentRegistry) GoString() string { return r.String() }

// Format writes String for every verb, so no verb prints the password.
func (r *ConfluentRegistry) Format(f fmt.State, verb rune) { _, _ = fmt.Fprint(f, r.String()) }

// schemaPayload is the body of a registration or compatibility request and
// of the API's schema responses.
type schemaPayload struct {
	Subject    string `json:"subject,omitempty"`
	ID         int    `json:"id,omitempty"`
	Version    int    `json:"version,omitempty"`
	SchemaType string `json:"schemaType,omitempty"`
	Schema     string `json:"schema"`
}

// Register posts definition to /subjects/{subject}/versions. The registry
// returns the existing id for a schema the subject already holds.
func (r *ConfluentRegistry) Register(ctx context.Context, subject, format, definition string) (SchemaDefinition, error) {
	fp, err := Fingerprint(format, definition)
	if err != nil {
		return SchemaDefinition{}, fmt.Errorf("acemq: cannot register an invalid Avro schema under %q: %w", subject, err)
	}
	var resp struct {
		ID int `json:"id"`
	}
	req := schemaPayload{SchemaType: schemaType(format), Schema: definition}
	if err := r.do(ctx, http.MethodPost, subjectPath(subject, "versions"), req, &resp); err != nil {
		return SchemaDefinition{}, err
	}
	return SchemaDefinition{ID: resp.ID, Subject: subject, Format: formatOr(format), Definition: definition, Fingerprint: fp}, nil
}

// ByID gets /schemas/ids/{id}.
func (r *ConfluentRegistry) ByID(ctx context.Context, id int) (SchemaDefinition, error) {
	var resp schemaPayload
	if err := r.do(ctx, http.MethodGet, "/schemas/ids/"+strconv.Itoa(id), nil, &resp); err != nil {
		return SchemaDefinition{}, err
	}
	resp.ID = id
	return definitionOf(resp)
}

// Latest gets /subjects/{subject}/versions/latest.
func (r *ConfluentRegistry) Latest(ctx context.Context, subject string) (SchemaDefinition, error) {
	return r.version(ctx, subject, "latest")
}

// Versions gets /subjects/{subject}/versions, then each version it lists.
func (r *ConfluentRegistry) Versions(ctx context.Context, subject string) ([]SchemaDefinition, error) {
	var numbers []int
	if err := r.do(ctx, http.MethodGet, subjectPath(subject, "versions"), nil, &numbers); err != nil {
		return nil, err
	}
	out := make([]SchemaDefinition, 0, len(numbers))
	for _, n := range numbers {
		d, err := r.version(ctx, subject, strconv.Itoa(n))
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}

func (r *ConfluentRegistry) version(ctx context.Context, subject, version string) (SchemaDefinition, error) {
	var resp schemaPayload
	if err := r.do(ctx, http.MethodGet, subjectPath(subject, "versions/"+version), nil, &resp); err != nil {
		return SchemaDefinition{}, err
	}
	if resp.Subject == "" {
		resp.Subject = subject
	}
	return definitionOf(resp)
}

// CheckCompatibility posts definition to
// /compatibility/subjects/{subject}/versions/latest and reports whether the
// registry, under the subject's compatibility level, would accept it. A
// subject with no versions yet accepts anything.
func (r *ConfluentRegistry) CheckCompatibility(ctx context.Context, subject, format, definition string) (bool, error) {
	var resp struct {
		IsCompatible bool `json:"is_compatible"`
	}
	req := schemaPayload{SchemaType: schemaType(format), Schema: definition}
	err := r.do(ctx, http.MethodPost, "/compatibility"+subjectPath(subject, "versions/latest"), req, &resp)
	if errors.Is(err, ErrSchemaNotFound) {
		return true, nil
	}
	return resp.IsCompatible, err
}

func subjectPath(subject, rest string) string {
	return "/subjects/" + url.PathEscape(subject) + "/" + rest
}

// schemaType is the API's name for format; Avro, the default, is left out.
func schemaType(format string) string {
	if format == FormatAvro || format == "" {
		return ""
	}
	return strings.ToUpper(format)
}

func formatOr(format string) string {
	if format == "" {
		return FormatAvro
	}
	return format
}

func definitionOf(p schemaPayload) (SchemaDefinition, error) {
	format := strings.ToLower(p.SchemaType)
	fp, err := Fingerprint(format, p.Schema)
	if err != nil {
		return SchemaDefinition{}, fmt.Errorf("acemq: the schema registry returned schema %d, which is not valid Avro: %w", p.ID, err)
	}
	return SchemaDefinition{ID: p.ID, Subject: p.Subject, Version: p.Version, Format: formatOr(format),
		Definition: p.Schema, Fingerprint: fp}, nil
}
