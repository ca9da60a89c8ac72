package acemq

import "github.com/acemq/acemq-gen/runtime/internal/option"

// connOptions combines opts into one ConnOption that applies them in order,
// stopping at the first error; nil entries are skipped.
func connOptions(opts ...ConnOption) ConnOption {
	return func(cfg *connConfig) error { return option.ApplyUntilError(cfg, opts) }
}
