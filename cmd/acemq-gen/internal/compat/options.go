// Package compat is acemq-gen compat (Options, Run, its help About and
// Example) and what it reads besides the working tree: a BASE directory or
// git revision, or every committed version of each contract file
// (--history).
package compat

import (
	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/sysgraph"
	"github.com/acemq/acemq-gen/generator"
)

// Options are what compat is given.
type Options struct {
	Against string   // the baseline: a BASE directory or git:REV
	History bool     // against every committed version instead of Against
	Since   string   // with History, only the versions from this revision on ("" all)
	Full    bool     // demand both directions for every message
	Paths   []string // the contract files or directories
	// UsageFile and Usage are --usage's graph: who reads which field.
	UsageFile string
	Usage     *sysgraph.Graph
}

// CompatOptions are the generator's options for o.
func (o Options) CompatOptions() []generator.CompatOption {
	var opts []generator.CompatOption
	if o.Full {
		opts = append(opts, generator.CompatFull())
	}
	if o.Usage != nil {
		opts = append(opts, generator.CompatUsage(o.UsageFile, Readers(o.Usage)))
	}
	return opts
}
