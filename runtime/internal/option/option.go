// Package option applies the functional options of the runtime's packages
// in one way: nil options are skipped, or refused where a package says a
// nil option is a mistake.
package option

// Apply calls each non-nil option of opts with cfg, in order.
func Apply[O ~func(C), C any](cfg C, opts []O) {
	for _, opt := range opts {
		if opt != nil {
			opt(cfg)
		}
	}
}

// ApplyChecked calls each option of opts with cfg, in order, and returns
// the first error; a nil option is errNil, which names the option.
func ApplyChecked[O ~func(C) error, C any](cfg C, opts []O, errNil error) error {
	for _, opt := range opts {
		if opt == nil {
			return errNil
		}
		if err := opt(cfg); err != nil {
			return err
		}
	}
	return nil
}

// ApplyUntilError calls each non-nil option of opts with cfg, in order, and
// returns the first error.
func ApplyUntilError[O ~func(C) error, C any](cfg C, opts []O) error {
	for _, opt := range opts {
		if opt == nil {
			continue
		}
		if err := opt(cfg); err != nil {
			return err
		}
	}
	return nil
}
