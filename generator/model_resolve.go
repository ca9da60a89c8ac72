package generator

import (
	"path"
	"path/filepath"
	"strings"
)

// resolver turns one contract's syntax tree into a Domain, applying the
// format's defaults and reporting what cannot be resolved.
type resolver struct {
	d        *diags
	f        *syntaxFile
	dom      *Domain
	records  map[string]*Record // types: by name
	codec    string
	retry    Retry
	pending  []pendingRecord // records whose fields resolve once every type is declared
	defaults []func()        // field defaults, checked once every field is resolved
}

type pendingRecord struct {
	rec    *Record
	fields []*syntaxField
}

// resolveContract returns the domain of f, or nil when f has no usable domain.
func resolveContract(f *syntaxFile, d *diags) *Domain {
	r := &resolver{d: d, f: f, records: map[string]*Record{}}
	if !r.header() {
		return nil
	}
	r.codec = r.codecOf(f.Codec, "json")
	r.encrypted(f.Encrypted, false)
	r.retry = r.retryOf(f.Retry, defaultRetry)
	r.declareTypes()
	for _, m := range f.Messages {
		r.dom.Messages = append(r.dom.Messages, r.message(m))
	}
	r.resolveTypes()
	return r.dom
}

// header reads the file keys that name the domain; false when it has none.
func (r *resolver) header() bool {
	f := r.f
	switch {
	case !f.Acemq.Given:
		r.d.errorf(f.P, "missing \"acemq\": a contract starts with `acemq: 1`")
	case f.Acemq.Set && f.Acemq.V != 1:
		r.d.errorf(f.Acemq.P, "unsupported format version %d; this acemq-gen reads version 1", f.Acemq.V)
	}
	if !f.Domain.Given {
		r.d.errorf(f.P, "missing \"domain\": name the domain, e.g. `domain: orders`")
	}
	if !f.Domain.Set {
		return false
	}
	pkg := strings.ReplaceAll(f.Domain.V, "-", "")
	r.dom = &Domain{Source: baseName(f.Path), Pos: f.Domain.P, Name: f.Domain.V,
		Package: orDefault(f.Package, pkg), Namespace: orDefault(f.Namespace, pkg), Doc: f.Doc.V}
	r.checkHeader()
	return true
}

func (r *resolver) checkHeader() {
	f := r.f
	if !domainRE.MatchString(r.dom.Name) {
		r.d.errorf(f.Domain.P, "bad domain %q: lower-case words joined by '-', such as orders or order-events", r.dom.Name)
	}
	if f.Package.Set && !validPackage(f.Package.V) {
		r.d.errorf(f.Package.P, "bad package %q: a lower-case Go package name that is not a keyword", f.Package.V)
	}
	if f.Namespace.Set && !namespaceRE.MatchString(f.Namespace.V) {
		r.d.errorf(f.Namespace.P, "bad namespace %q: Avro names joined by '.', such as com.example.orders", f.Namespace.V)
	}
}

func orDefault(s sStr, def string) string {
	if s.Set {
		return s.V
	}
	return def
}

// baseName is the file name of a contract path, in either separator style,
// so generated comments never carry a directory.
func baseName(p string) string { return path.Base(filepath.ToSlash(p)) }

// codecOf checks a codec name; def is used when s is absent.
func (r *resolver) codecOf(s sStr, def string) string {
	if !s.Set {
		return def
	}
	switch {
	case supportedCodecs[s.V]:
	case knownCodecs[s.V]:
		r.d.errorf(s.P, "codec %s is not supported yet", s.V)
	default:
		r.d.errorf(s.P, "unknown codec %q (expected one of json, avro, avro-registered, yaml, toml, text, bytes)", s.V)
	}
	return s.V
}

var (
	supportedCodecs = map[string]bool{"json": true, "text": true, "bytes": true}
	knownCodecs     = map[string]bool{"avro": true, "avro-registered": true, "yaml": true, "toml": true}
)
