package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/acemq/acemq-gen/generator"
	"github.com/acemq/acemq-gen/runtime/avro"
)

// registrySession is one run of registry push or check.
type registrySession struct {
	sub            string
	reg            *avro.ConfluentRegistry
	where          string // the registry's URL without credentials
	srcs           []generator.Source
	stdout, stderr io.Writer
}

// outage reports a registry that cannot be reached or will not answer
// (network, TLS, authentication, a server error) and returns exitUsage.
func (s *registrySession) outage(e generator.Entry, err error) int {
	var ce *avro.ConfluentError
	if errors.As(err, &ce) {
		fmt.Fprintf(s.stderr, "acemq-gen registry %s: %s (subject %q): the schema registry at %s answered %d %s (error %d)\n",
			s.sub, e.Name, e.Subject, s.where, ce.StatusCode, ce.Message, ce.ErrorCode)
		return exitUsage
	}
	fmt.Fprintf(s.stderr, "acemq-gen registry %s: cannot reach the schema registry at %s: %s\n", s.sub, s.where, unprefixed(err))
	return exitUsage
}

// unprefixed is err's text without the runtime's "acemq: " prefix.
func unprefixed(err error) string { return strings.TrimPrefix(err.Error(), "acemq: ") }

// registryPush registers the schema of every avro-registered message under
// its subject and prints "subject version id" for each on stdout.
func registryPush(ctx context.Context, s *registrySession) int {
	msgs, code := registeredMessages(s.srcs, s.stderr)
	if code != exitOK {
		return code
	}
	status, added, held := exitOK, 0, 0
	for _, e := range msgs {
		def, fresh, err := pushOne(ctx, s.reg, e)
		switch {
		case refused(err):
			fmt.Fprintf(s.stderr, "acemq-gen registry push: %s (subject %q): the registry refuses the schema: %s\n", e.Name, e.Subject, unprefixed(err))
			status = exitFindings
			continue
		case err != nil:
			return s.outage(e, err)
		case fresh:
			added++
		default:
			held++
		}
		fmt.Fprintf(s.stdout, "%s %d %d\n", e.Subject, def.Version, def.ID)
	}
	fmt.Fprintf(s.stderr, "registry push: %s: %d registered, %d already registered\n", plural(len(msgs), "avro-registered message"), added, held)
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

// registryCheck checks every avro-registered message against every version
// its subject holds with acemq-gen's role-aware rules, and asks the
// registry for its own verdict; it exits 1 when either finds a break.
func registryCheck(ctx context.Context, s *registrySession) int {
	msgs, code := registeredMessages(s.srcs, s.stderr)
	if code != exitOK {
		return code
	}
	held := map[string][]generator.Held{}
	versions := 0
	for _, e := range msgs {
		if _, done := held[e.Subject]; done {
			continue
		}
		hs, err := heldVersions(ctx, s.reg, e.Subject)
		if err != nil {
			return s.outage(e, err)
		}
		held[e.Subject] = hs
		versions += len(hs)
	}
	ds := generator.CompatHeld(s.srcs, held)
	printDiagnostics(ds, s.stderr)
	breaks := len(ds.Errors())
	for _, e := range msgs {
		n, code := s.verdict(ctx, e, held[e.Subject], ds)
		if code != exitOK {
			return code
		}
		breaks += n
	}
	if breaks > 0 {
		return exitFindings
	}
	fmt.Fprintf(s.stdout, "registry check: %s checked against %s; nothing breaks\n", plural(len(msgs), "avro-registered message"),
		plural(versions, "registered version"))
	return exitOK
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
func (s *registrySession) verdict(ctx context.Context, e generator.Entry, held []generator.Held, ds generator.Diagnostics) (int, int) {
	if len(held) == 0 {
		fmt.Fprintf(s.stdout, "%s: %s: new subject; nothing to break\n", e.Subject, e.Name)
		return 0, exitOK
	}
	ours := "nothing breaks"
	if n := countFor(ds, e); n > 0 {
		ours = plural(n, "break")
	}
	ok, err := s.reg.CheckCompatibility(ctx, e.Subject, avro.FormatAvro, e.AvroFullSchema)
	switch {
	case err != nil && !refused(err):
		return 0, s.outage(e, err)
	case err != nil || !ok:
		fmt.Fprintf(s.stdout, "%s: %s: %s held; acemq-gen: %s; registry: incompatible with version %d\n",
			e.Subject, e.Name, plural(len(held), "version"), ours, held[len(held)-1].Version)
		fmt.Fprintf(s.stderr, "acemq-gen registry check: %s (subject %q): the registry's own check refuses the schema against its latest version %d\n",
			e.Name, e.Subject, held[len(held)-1].Version)
		return 1, exitOK
	}
	fmt.Fprintf(s.stdout, "%s: %s: %s held; acemq-gen: %s; registry: compatible\n", e.Subject, e.Name, plural(len(held), "version"), ours)
	return 0, exitOK
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
