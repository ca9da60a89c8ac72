package acemq

// connOptions combines opts into one ConnOption that applies them in order,
// stopping at the first error; nil entries are skipped.
func connOptions(opts ...ConnOption) ConnOption {
	return func(cfg *connConfig) error {
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
}
