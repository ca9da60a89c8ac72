package acemq

import "errors"

// errNilBuild refuses a nil codec builder where it is given rather than at
// the first message.
var errNilBuild = errors.New("acemq: the codec builder is nil")

// bridgeCodec makes the publisher encode with the codec build returns for
// the publisher's connection (acemqimpl.PublishWithFunc): when build fails,
// every Send fails with build's error.
func (p *Publisher[T]) bridgeCodec(build func(*Conn) (Codec, error)) {
	c, err := buildCodec(p.conn, build)
	if err != nil {
		p.err = err
		return
	}
	p.codec = c
}

// consumeWithFunc makes the consumer decode with the codec build returns for
// conn; when build fails, Consume fails with its error (which names the
// missing ConnOption). A nil build or a nil codec are refused.
func consumeWithFunc(conn *Conn, build func(*Conn) (Codec, error)) ConsumeOption {
	return func(cfg *consumeConfig) error {
		c, err := buildCodec(conn, build)
		if err != nil {
			return err
		}
		cfg.codec = c
		return nil
	}
}

// buildCodec calls build, refusing a nil builder and a nil codec; a panic
// in build is the error "acemq: the codec builder panicked: <value>".
func buildCodec(conn *Conn, build func(*Conn) (Codec, error)) (Codec, error) {
	if build == nil {
		return nil, errNilBuild
	}
	c, err := guarded(func() string { return "acemq: the codec builder" }, func() (Codec, error) { return build(conn) })
	switch {
	case err != nil:
		return nil, err
	case c == nil:
		return nil, errors.New("acemq: the codec builder returned a nil codec")
	}
	return c, nil
}
