package acemq

// ConnOption configures a connection at Connect. Options are validated; an
// invalid one fails Connect.
type ConnOption func(*connConfig) error

// connConfig is everything Connect was told. (Skeleton: the runtime-core work
// adds the codec, origin, retry, prefetch, interceptors and observer.)
type connConfig struct {
	ext map[any]any
}

// Conn is a connection to a broker through one Transport. Safe for
// concurrent use.
type Conn struct {
	cfg connConfig
}

// Extensions returns the extension values given to Connect (see Extension).
func (c *Conn) Extensions() Extensions { return Extensions{m: c.cfg.ext} }
