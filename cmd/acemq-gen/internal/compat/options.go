// Package compat is what acemq-gen compat reads besides the working tree:
// a BASE directory or git revision, or every committed version of each
// contract file (--history).
package compat

import "github.com/acemq/acemq-gen/generator"

// Options are what compat --history is given.
type Options struct {
	Since string   // only the versions from this revision on ("" all)
	Full  bool     // demand both directions for every message
	Paths []string // the contract files or directories
}

// CompatOptions are the generator's options for o.
func (o Options) CompatOptions() []generator.CompatOption {
	if o.Full {
		return []generator.CompatOption{generator.CompatFull()}
	}
	return nil
}
