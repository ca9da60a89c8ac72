package registry

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/ops"
	"github.com/acemq/acemq-gen/generator"
	"github.com/acemq/acemq-gen/runtime/avro"
)

// Session is one run of registry push or check.
type Session struct {
	Sub            string // push or check, as messages name it
	Registry       *avro.ConfluentRegistry
	Where          string // the registry's URL without credentials
	Sources        []generator.Source
	Stdout, Stderr io.Writer
}

// outage reports a registry that cannot be reached or will not answer
// (network, TLS, authentication, a server error) and returns ops.ExitUsage.
func (s *Session) outage(e generator.Entry, err error) int {
	var ce *avro.ConfluentError
	if errors.As(err, &ce) {
		fmt.Fprintf(s.Stderr, "acemq-gen registry %s: %s (subject %q): the schema registry at %s answered %d %s (error %d)\n",
			s.Sub, e.Name, e.Subject, s.Where, ce.StatusCode, ce.Message, ce.ErrorCode)
		return ops.ExitUsage
	}
	fmt.Fprintf(s.Stderr, "acemq-gen registry %s: cannot reach the schema registry at %s: %s\n", s.Sub, s.Where, ops.Unprefixed(err))
	return ops.ExitUsage
}

// Push registers the schema of every avro-registered message under
// its subject and prints "subject version id" for each on stdout.
func Push(ctx context.Context, s *Session) int {
	msgs, code := registeredMessages(s.Sources, s.Stderr)
	if code != ops.ExitOK {
		return code
	}
	status, added, held := ops.ExitOK, 0, 0
	for _, e := range msgs {
		def, fresh, err := pushOne(ctx, s.Registry, e)
		switch {
		case refused(err):
			fmt.Fprintf(s.Stderr, "acemq-gen registry push: %s (subject %q): the registry refuses the schema: %s\n", e.Name, e.Subject, ops.Unprefixed(err))
			status = ops.ExitFindings
			continue
		case err != nil:
			return s.outage(e, err)
		case fresh:
			added++
		default:
			held++
		}
		fmt.Fprintf(s.Stdout, "%s %d %d\n", e.Subject, def.Version, def.ID)
	}
	fmt.Fprintf(s.Stderr, "registry push: %s: %d registered, %d already registered\n", ops.Plural(len(msgs), "avro-registered message"), added, held)
	return status
}

// pushOne registers e's schema under its subject; fresh says the subject
// did not hold it before. The text is the one the runtime's producers
// register (the contract's full schema, defaults included), so they find
// the same id. It uses only POST /subjects/{s}/versions and the versions'
// GETs: the registry returns the existing id of a schema it holds.
func pushOne(ctx context.Context, reg *avro.ConfluentRegistry, e generator.Entry) (def avro.SchemaDefinition, fresh bool, err error) {
	before, err := heldVersions(ctx, reg, e.Subject)
	if err != nil {
		return def, false, err
	}
	got, err := reg.Register(ctx, e.Subject, avro.FormatAvro, e.AvroFullSchema)
	if err != nil {
		return def, false, err
	}
	if h, ok := heldID(before, got.ID); ok {
		return avro.SchemaDefinition{Subject: e.Subject, ID: h.ID, Version: h.Version}, false, nil
	}
	after, err := heldVersions(ctx, reg, e.Subject)
	if err != nil {
		return def, false, err
	}
	h, ok := heldID(after, got.ID)
	if !ok {
		return def, false, fmt.Errorf("the registry gave id %d but lists no version of subject %q with it", got.ID, e.Subject)
	}
	return avro.SchemaDefinition{Subject: e.Subject, ID: h.ID, Version: h.Version}, true, nil
}

// heldID finds the version holding schema id.
func heldID(held []generator.Held, id int) (generator.Held, bool) {
	for _, h := range held {
		if h.ID == id {
			return h, true
		}
	}
	return generator.Held{}, false
}

// Check checks every avro-registered message against every version
// its subject holds with acemq-gen's role-aware rules, and asks the
// registry for its own verdict; it exits 1 when either finds a break.
func Check(ctx context.Context, s *Session) int {
	msgs, code := registeredMessages(s.Sources, s.Stderr)
	if code != ops.ExitOK {
		return code
	}
	held := map[string][]generator.Held{}
	versions := 0
	for _, e := range msgs {
		if _, done := held[e.Subject]; done {
			continue
		}
		hs, err := heldVersions(ctx, s.Registry, e.Subject)
		if err != nil {
			return s.outage(e, err)
		}
		held[e.Subject] = hs
		versions += len(hs)
	}
	ds := generator.CompatHeld(s.Sources, held)
	ops.PrintDiagnostics(ds, s.Stderr)
	breaks := len(ds.Errors())
	for _, e := range msgs {
		n, code := s.verdict(ctx, e, held[e.Subject], ds)
		if code != ops.ExitOK {
			return code
		}
		breaks += n
	}
	if breaks > 0 {
		return ops.ExitFindings
	}
	fmt.Fprintf(s.Stdout, "registry check: %s checked against %s; nothing breaks\n", ops.Plural(len(msgs), "avro-registered message"),
		ops.Plural(versions, "registered version"))
	return ops.ExitOK
}

// heldVersions is every version subject holds; none for a new subject.
func heldVersions(ctx context.Context, reg *avro.ConfluentRegistry, subject string) ([]generator.Held, error) {
	defs, err := reg.Versions(ctx, subject)
	if errors.Is(err, avro.ErrSchemaNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	out := make([]generator.Held, len(defs))
	for i, d := range defs {
		out[i] = generator.Held{Version: d.Version, ID: d.ID, Schema: d.Definition}
	}
	return out, nil
}

// verdict prints e's line on stdout, with acemq-gen's verdict and the
// registry's own (POST /compatibility/subjects/{s}/versions/latest), and
// returns 1 when the registry refuses the schema.
func (s *Session) verdict(ctx context.Context, e generator.Entry, held []generator.Held, ds generator.Diagnostics) (int, int) {
	if len(held) == 0 {
		fmt.Fprintf(s.Stdout, "%s: %s: new subject; nothing to break\n", e.Subject, e.Name)
		return 0, ops.ExitOK
	}
	ours := "nothing breaks"
	if n := countFor(ds, e); n > 0 {
		ours = ops.Plural(n, "break")
	}
	ok, err := s.Registry.CheckCompatibility(ctx, e.Subject, avro.FormatAvro, e.AvroFullSchema)
	switch {
	case err != nil && !refused(err):
		return 0, s.outage(e, err)
	case err != nil || !ok:
		fmt.Fprintf(s.Stdout, "%s: %s: %s held; acemq-gen: %s; registry: incompatible with version %d\n",
			e.Subject, e.Name, ops.Plural(len(held), "version"), ours, held[len(held)-1].Version)
		fmt.Fprintf(s.Stderr, "acemq-gen registry check: %s (subject %q): the registry's own check refuses the schema against its latest version %d\n",
			e.Name, e.Subject, held[len(held)-1].Version)
		return 1, ops.ExitOK
	}
	fmt.Fprintf(s.Stdout, "%s: %s: %s held; acemq-gen: %s; registry: compatible\n", e.Subject, e.Name, ops.Plural(len(held), "version"), ours)
	return 0, ops.ExitOK
}

// countFor counts the errors of ds about e.
func countFor(ds generator.Diagnostics, e generator.Entry) int {
	n := 0
	prefix := fmt.Sprintf("%s: subject %q ", e.Name, e.Subject)
	for _, d := range ds.Errors() {
		if strings.HasPrefix(d.Message, prefix) {
			n++
		}
	}
	return n
}
