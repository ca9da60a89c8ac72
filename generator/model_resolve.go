package generator

import (
	"cmp"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/acemq/acemq-gen/internal/spelling"
)

// resolver turns one contract's syntax tree into a Domain, applying the
// format's defaults and reporting what cannot be resolved.
type resolver struct {
	d          *diags
	w          *world
	f          *syntaxFile
	dom        *domain
	records    map[string]*recordModel // types: by name
	codec      string
	retry      retry
	ladder     string           // schedule-ladder: the type of the schedule ladder's queues
	pending    []pendingRecord  // records whose fields resolve once every type is declared
	defaults   []func()         // field defaults, checked once every field is resolved
	merged     bool             // an .avsc file whose types joined another file's domain
	into       *resolver        // the file it joined
	consumedBy *resolver        // the contract whose schema: names this .avsc file
	asSchema   bool             // this .avsc file became a payload through schema:
	halves     []*syntaxMessage // .avsc rpc-request and rpc-response records, paired by pairRPCs
}

type pendingRecord struct {
	rec    *recordModel
	fields []*syntaxField
}

// world is every file of one run, so that files can use each other's types.
type world struct {
	d         *diags
	files     []*resolver
	byPath    map[string]*resolver    // by clean slash path
	fullNames map[string]*recordModel // every named type by Avro full name
	declared  map[*recordModel]bool   // the types the contracts declare (not inline fixed types)
	named     map[string]*resolver    // the first YAML contract of each domain, by name
}

func newWorld(d *diags) *world {
	return &world{d: d, byPath: map[string]*resolver{}, fullNames: map[string]*recordModel{},
		declared: map[*recordModel]bool{}, named: map[string]*resolver{}}
}

// add declares the domain and the types of f; nil when f has no usable header.
func (w *world) add(f *syntaxFile) {
	r := &resolver{d: w.d, w: w, f: f, records: map[string]*recordModel{}}
	w.byPath[cleanPath(f.Path)] = r
	if !r.header() {
		return
	}
	w.joinSplit(r)
	r.codec = r.codecOf(f.Codec, codecJSON)
	r.encrypted(f.Encrypted, false)
	r.retry = r.retryOf(f.Retry, defaultRetry)
	r.ladder = cmp.Or(r.oneOf(f.ScheduleLadder, "schedule-ladder", "the type of the schedule ladder's rungs and due queue", queueTypes.values...), "classic")
	r.declareTypes()
	if f.Avro {
		r.linkPayloads()
	}
	w.files = append(w.files, r)
}

// resolve resolves every file's messages and fields, once every type of the
// run is declared, and returns the domains.
func (w *world) resolve() []*domain {
	w.checkImports()
	w.join()
	w.declareMessages()
	w.dropRedeclared()
	for _, r := range w.files {
		r.resolveTypes()
	}
	for _, r := range w.files {
		for _, resolve := range r.defaults {
			resolve()
		}
	}
	doms := w.domains()
	markXMLRecords(doms)
	w.checkLadders(doms)
	w.checkLadderKeysUsed()
	return doms
}

// checkLadderKeysUsed warns of a schedule-ladder key in a file whose domain
// schedules nothing: the key would otherwise be ignored without a word.
func (w *world) checkLadderKeysUsed() {
	for _, r := range w.files {
		k := r.f.ScheduleLadder
		if k.Set && r.dom != nil && !slices.ContainsFunc(r.dom.Messages, func(m *message) bool { return m.Schedulable }) {
			w.d.warnf(k.P, "schedule-ladder has no effect: no message of domain %s is schedulable", r.dom.Name)
		}
	}
}

// checkLadders refuses schedulable messages that want schedule ladders of
// two types: the ladder's queues are one set per virtual host, declared
// alike by every service.
func (w *world) checkLadders(doms []*domain) {
	var first *message
	for _, d := range doms {
		for _, m := range d.Messages {
			switch {
			case !m.Schedulable:
			case first == nil:
				first = m
			case m.ScheduleLadder != first.ScheduleLadder:
				w.d.errorf(m.Pos, "%s: its schedule ladder is %s but %s's at %s is %s; the ladder is one per virtual host (schedule-ladder)",
					m.Name, m.ScheduleLadder, first.Name, first.Pos, first.ScheduleLadder)
			}
		}
	}
}

func (w *world) declareMessages() {
	for _, r := range w.files {
		for _, s := range r.f.Refused {
			r.messageSettings(s) // reports what else is wrong with it
		}
		if r.f.Avro {
			r.declareAvscMessages()
		} else {
			r.declareMessages()
		}
	}
	for _, r := range w.files {
		r.pairRPCs()
	}
}

// domains are the packages to generate: every domain and type library that
// did not join another, except .avsc libraries left without types.
func (w *world) domains() []*domain {
	var out []*domain
	for _, r := range w.files {
		if r.dom != nil && !r.merged && !(r.f.Avro && r.dom.Library && len(r.dom.Records) == 0) {
			out = append(out, r.dom)
		}
	}
	return out
}

// checkImports reports each import whose file is not part of the run, and
// an alias used twice.
func (w *world) checkImports() {
	for _, r := range w.files {
		seen := map[string]bool{}
		for _, imp := range r.f.Imports {
			if seen[imp.Alias.V] {
				w.d.errorf(imp.Alias.P, "import alias %s is used twice", imp.Alias.V)
			}
			seen[imp.Alias.V] = true
			if p, _ := r.importOf(imp.Alias.V); imp.Path.Set && w.byPath[p] == nil {
				w.d.errorf(imp.Path.P, "import %s: %s", imp.Alias.V, noSuchFile(p))
			}
		}
	}
}

func (r *resolver) declareMessages() {
	for _, m := range r.f.Messages {
		if m.Kind == streamKind {
			r.dom.Streams = append(r.dom.Streams, r.stream(m))
		} else if msg := r.message(m); msg != nil {
			r.dom.Messages = append(r.dom.Messages, msg)
		}
	}
	for _, s := range r.f.RPCs {
		r.dom.RPCs = append(r.dom.RPCs, r.rpc(s))
	}
}

// noSuchFile says that the file p, which a contract names, is not part of
// the run: ReadSources found no such file (or the caller passed none).
func noSuchFile(p string) string {
	return fmt.Sprintf("no such file %s in this run (a path relative to this contract)", p)
}

func cleanPath(p string) string { return path.Clean(filepath.ToSlash(p)) }

// header reads the file keys that name the domain; false when it has none.
func (r *resolver) header() bool {
	f := r.f
	if f.Avro {
		return r.avroHeader()
	}
	switch {
	case !f.Acemq.Given:
		r.d.errorf(f.P, "missing \"acemq\": a contract starts with `acemq: 1`")
	case f.Acemq.Set && f.Acemq.V != 1:
		r.d.errorf(f.Acemq.P, "unsupported format version %d; this acemq-gen reads version 1", f.Acemq.V)
	}
	if !f.Domain.Given && r.isLibrary() {
		return r.libraryHeader()
	}
	if !f.Domain.Given {
		r.d.errorf(f.P, "missing \"domain\": name the domain, e.g. `domain: orders` (a file of types only, a type library, names a package or a namespace instead)")
	}
	if !f.Domain.Set {
		return false
	}
	pkg := strings.ReplaceAll(f.Domain.V, "-", "")
	r.dom = &domain{Source: baseName(f.Path), Pos: f.Domain.P, Name: f.Domain.V, Dir: path.Dir(cleanPath(f.Path)),
		Package: orDefault(f.Package, pkg), Namespace: orDefault(f.Namespace, pkg), Doc: f.Doc.V}
	r.checkHeader()
	return true
}

// isLibrary reports whether the file declares types and no messages.
func (r *resolver) isLibrary() bool {
	return len(r.f.Types) > 0 && len(r.f.Messages) == 0 && len(r.f.RPCs) == 0
}

// libraryHeader names a type library by its package, else by the last
// segment of its namespace.
func (r *resolver) libraryHeader() bool {
	f := r.f
	if !f.Package.Set && !f.Namespace.Set {
		r.d.errorf(f.P, "a type library (types and no messages) needs a package or a namespace to name its Go package")
		return false
	}
	ns := orDefault(f.Namespace, f.Package.V)
	pkg := orDefault(f.Package, ns[strings.LastIndex(ns, ".")+1:])
	r.dom = &domain{Source: baseName(f.Path), Pos: f.P, Package: pkg, Namespace: ns, Doc: f.Doc.V,
		Library: true, Dir: path.Dir(cleanPath(f.Path))}
	r.checkHeader()
	if !f.Package.Set && !validPackage(pkg) {
		r.d.errorf(f.Namespace.P, "namespace %q ends in %q, which is not a Go package name; set package:", ns, pkg)
	}
	return true
}

func (r *resolver) checkHeader() {
	f := r.f
	if !r.dom.Library && !domainRE.MatchString(r.dom.Name) {
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
	if !knownCodec(s.V) {
		names := codecNames(func(codecFact) bool { return true })
		r.d.errorf(s.P, "unknown codec %q%s (expected one of %s)", s.V, spelling.DidYouMean(spelling.Nearest(s.V, names)), strings.Join(names, ", "))
	}
	return s.V
}
