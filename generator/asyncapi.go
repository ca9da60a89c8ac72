package generator

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf16"

	"github.com/acemq/acemq-gen/generator/internal/yamlout"
	"github.com/acemq/acemq-gen/runtime/acemq"
)

// AsyncAPI documents: one AsyncAPI 3.0.0 document per domain, from the point
// of view of the domain's owning service. It sends the domain's events (and
// its RPC replies, through each RPC's reply object) and receives its commands
// and RPC requests. The document is built as data (asyncapi_doc.go) and
// marshalled: encoding/json, and for YAML that JSON re-read in order and
// written by goccy/go-yaml (internal/yamlout), so both formats hold the same
// document.

// AsyncAPIOption configures AsyncAPI.
type AsyncAPIOption func(*asyncapiConfig)

type asyncapiConfig struct {
	format  string // yaml or json
	servers []asyncapiServer
}

type asyncapiServer struct{ name, url string }

// AsyncAPIFormat sets the documents' format: "yaml" (the default) or "json".
// Any other value is an error of the run.
func AsyncAPIFormat(format string) AsyncAPIOption {
	return func(c *asyncapiConfig) { c.format = format }
}

// AsyncAPIServer adds a server entry named name for the broker at rawURL
// (amqp:// or amqps://, its path the virtual host). Default: no server entry.
func AsyncAPIServer(name, rawURL string) AsyncAPIOption {
	return func(c *asyncapiConfig) { c.servers = append(c.servers, asyncapiServer{name, rawURL}) }
}

// AsyncAPIFileName is the name of a domain's document: <domain>.asyncapi.yaml,
// or .asyncapi.json for the json format.
func AsyncAPIFileName(domain, format string) string {
	if format == "json" {
		return domain + ".asyncapi.json"
	}
	return domain + ".asyncapi.yaml"
}

// IsAsyncAPIFile reports whether name is a document AsyncAPI writes.
func IsAsyncAPIFile(name string) bool {
	return strings.HasSuffix(name, ".asyncapi.yaml") || strings.HasSuffix(name, ".asyncapi.json")
}

// AsyncAPI parses, resolves and validates the contracts in srcs like
// Generate and returns one AsyncAPI 3.0.0 document per domain (type
// libraries have none), named by AsyncAPIFileName and relative to the output
// directory. The output depends only on the sources' paths and bytes and the
// options. Safe for concurrent use.
func AsyncAPI(srcs []Source, opts ...AsyncAPIOption) (res Result) {
	defer recoverInternal(&res.Diagnostics)
	cfg := newAsyncAPIConfig(opts)
	if err := cfg.check(); err != nil {
		return Result{Diagnostics: Diagnostics{{Pos: Pos{File: "acemq-gen"}, Message: err.Error()}}}
	}
	m, ds := build(srcs)
	if ds.HasErrors() {
		return Result{Diagnostics: ds.Errors()}
	}
	files, err := asyncapiFiles(m, cfg)
	if err != nil {
		return Result{Diagnostics: Diagnostics{{Pos: Pos{File: "acemq-gen"}, Message: err.Error()}}}
	}
	return Result{Files: files}
}

// CheckAsyncAPIOptions returns the error AsyncAPI would report for opts (an
// unknown format; a server without a name, or whose URL is not an amqp:// or
// amqps:// URL with a host), so a command can refuse them as a usage error
// before reading a contract; nil when AsyncAPI accepts them. Its errors, like
// AsyncAPI's, never show a server's URL.
func CheckAsyncAPIOptions(opts ...AsyncAPIOption) error {
	return newAsyncAPIConfig(opts).check()
}

// newAsyncAPIConfig applies opts to the defaults.
func newAsyncAPIConfig(opts []AsyncAPIOption) asyncapiConfig {
	cfg := asyncapiConfig{format: "yaml"}
	for _, opt := range opts {
		if opt != nil {
			opt(&cfg)
		}
	}
	return cfg
}

// serverNameRE is what a server entry's name may hold.
var serverNameRE = regexp.MustCompile(`^[A-Za-z0-9_.-]+$`)

// check refuses an unknown format and a server that is not an AMQP URL. Its
// errors never show a server's URL, nor a name that is not one (a URL cut at
// an '=' of its password): either may hold a password.
func (c asyncapiConfig) check() error {
	if c.format != "yaml" && c.format != "json" {
		return fmt.Errorf("unknown AsyncAPI format %q (expected yaml or json)", displayText(c.format))
	}
	for i, s := range c.servers {
		if !serverNameRE.MatchString(s.name) {
			return fmt.Errorf("server %d: a server needs a name of letters, digits, '.', '-' or '_' before its URL: NAME=URL (the value is not shown: it may hold a password)", i+1)
		}
		if err := acemq.CheckURL(s.url); err != nil { // part of the password would reach the document
			return fmt.Errorf("server %s: %w", s.name, err)
		}
		if u, err := url.Parse(s.url); err != nil || (u.Scheme != "amqp" && u.Scheme != "amqps") || u.Host == "" {
			return fmt.Errorf("server %s: its URL is not an amqp:// or amqps:// URL with a host (not shown: it may hold a password; percent-encode / ? # @ in one)", s.name)
		}
	}
	return nil
}

func asyncapiFiles(m *model, cfg asyncapiConfig) ([]File, error) {
	var files []File
	for _, dom := range m.Domains {
		if dom.Library {
			continue
		}
		data, err := marshalDocument(asyncapiDocument(dom, cfg), cfg.format)
		if err != nil {
			return nil, fmt.Errorf("asyncapi document of domain %s: %w", dom.Name, err)
		}
		files = append(files, File{Path: AsyncAPIFileName(dom.Name, cfg.format), Data: data})
	}
	slices.SortFunc(files, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	return files, nil
}

// marshalDocument writes doc as indented JSON, or as YAML in the same order.
func marshalDocument(doc any, format string) ([]byte, error) {
	compact, err := marshal(doc)
	if err != nil {
		return nil, err
	}
	if format == "json" {
		var b bytes.Buffer
		if err := json.Indent(&b, []byte(compact), "", "  "); err != nil {
			return nil, err
		}
		b.WriteByte('\n')
		return escapeUnprintable(b.Bytes()), nil
	}
	return yamlout.FromJSON([]byte(compact))
}

// escapeUnprintable writes every character of an indented JSON document that
// is not printable (NEL, a BOM, bidirectional formatting, which
// encoding/json leaves raw) as a \u escape, so that YAML parsers, which
// read JSON too, and editors see it as JSON does. Outside strings such a
// document holds only printable ASCII, spaces and newlines.
func escapeUnprintable(doc []byte) []byte {
	var b bytes.Buffer
	for _, r := range string(doc) {
		switch {
		case r == '\n' || unicode.IsPrint(r):
			b.WriteRune(r)
		case r > 0xffff:
			r1, r2 := utf16.EncodeRune(r)
			fmt.Fprintf(&b, `\u%04x\u%04x`, r1, r2)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return b.Bytes()
}
