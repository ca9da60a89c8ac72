// Package sysgraph holds the system graph's JSON form: which services
// publish, send, call, consume and serve which messages, and which fields of
// each consumed payload their handlers read. `acemq-gen graph` writes it,
// `compat --usage` and `catalog --usage` read it. docs/usage.md documents
// it; the format is stable within a Version.
//
//	go/packages ─▶ graph (analysis) ─▶ sysgraph.Graph ─▶ JSON file ─▶ compat --usage, catalog --usage
package sysgraph

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
)

// Version is the format's version, written in every Graph.
const Version = 1

// Graph is the system graph: every service found, in name order.
type Graph struct {
	Version  int       `json:"version"`
	Services []Service `json:"services"`
}

// Service is one service: a module, or the name its code gives in its
// Consume<Event>(…, service, …) calls.
type Service struct {
	Name string `json:"name"`
	// Module is the Go module path the service's code is in.
	Module string `json:"module"`
	// Publishes are the events it publishes, Sends the commands it sends,
	// Calls the RPCs it calls; Consumes the events and commands it handles,
	// Serves the RPCs it answers.
	Publishes []Use `json:"publishes,omitempty"`
	Sends     []Use `json:"sends,omitempty"`
	Calls     []Use `json:"calls,omitempty"`
	Consumes  []Use `json:"consumes,omitempty"`
	Serves    []Use `json:"serves,omitempty"`
}

// Use is one use of a message by a service's code.
type Use struct {
	// Domain and Message name the message as its contract does (the domain,
	// the message's or RPC's UpperCamel name); Kind is "event", "command",
	// "rpc" or "stream".
	Domain  string `json:"domain"`
	Message string `json:"message"`
	Kind    string `json:"kind"`
	// Queue is the queue a consumer reads (a subscriber's <service>.<key>).
	Queue string `json:"queue,omitempty"`
	// Pos is where the use is: "file:line" (file relative to the module
	// root when it is inside one).
	Pos string `json:"pos"`
	// Fields are the payload fields a consumer's handler reads, by their
	// contract (wire) names, each with where it is read; nested fields are
	// dotted ("address.city").
	Fields []FieldRead `json:"fields,omitempty"`
	// AllFields says the handler reads every field (the payload escapes
	// into any, reflection, encoding or an unknown function); Why says how.
	AllFields bool   `json:"allFields,omitempty"`
	Why       string `json:"why,omitempty"`
}

// FieldRead is one payload field a handler reads, and where: file:line in
// the consumer's module, or module-path/file:line in a library module it
// imports.
type FieldRead struct {
	Field string   `json:"field"`
	Pos   []string `json:"pos"`
}

// Read decodes a graph file, refusing an unknown version.
func Read(path string) (*Graph, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("usage graph: %w", err)
	}
	defer f.Close()
	return Decode(f, path)
}

// Decode decodes a graph from r; name is what errors call it.
func Decode(r io.Reader, name string) (*Graph, error) {
	var g Graph
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&g); err != nil {
		return nil, fmt.Errorf("usage graph %s: %w", name, err)
	}
	if g.Version != Version {
		return nil, fmt.Errorf("usage graph %s: version %d, this acemq-gen reads version %d", name, g.Version, Version)
	}
	return &g, nil
}

// Write encodes g as indented JSON, the same bytes for the same graph.
func Write(w io.Writer, g *Graph) error {
	g.Version = Version
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(g)
}
