package patterns

import (
	"errors"
	"fmt"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"

	"github.com/acemq/acemq-gen/runtime/internal/option"
)

// DefaultTimeout is how long Do waits for a reply unless Timeout or the
// caller's ctx says otherwise (the family's 30 s).
const DefaultTimeout = 30 * time.Second

// RequesterOption configures a Requester or a Client; an invalid one makes
// NewRequester fail.
type RequesterOption func(*requesterConfig) error

// requesterConfig is everything NewRequester was told.
type requesterConfig struct {
	conn     *acemq.Conn
	timeout  time.Duration
	replyTo  string
	declared map[string]*DeclaredError
	codec    acemq.Codec
}

func buildRequesterConfig(conn *acemq.Conn, opts []RequesterOption) (requesterConfig, error) {
	cfg := requesterConfig{conn: conn, timeout: DefaultTimeout, codec: conn.Codec(), declared: map[string]*DeclaredError{}}
	if err := option.ApplyChecked(&cfg, opts, errors.New("acemq: a requester option is nil")); err != nil {
		return requesterConfig{}, err
	}
	return cfg, nil
}

// Timeout sets how long Do waits for a reply when the caller's ctx allows
// longer. Default DefaultTimeout (30 s); it must be positive.
func Timeout(d time.Duration) RequesterOption {
	return func(cfg *requesterConfig) error {
		if d <= 0 {
			return fmt.Errorf("acemq: Timeout must be positive, got %s", d)
		}
		cfg.timeout = d
		return nil
	}
}

// ReplyTo makes the requester receive its replies on the named queue (the
// family's way) instead of direct reply-to. The queue is declared as
// acemq.Conn.DeclareQueue declares by default (durable, quorum), so an
// existing queue with other settings makes NewRequester fail. Only one
// requester should read a given reply queue. Default: direct reply-to.
func ReplyTo(queue string) RequesterOption {
	return func(cfg *requesterConfig) error {
		if queue == "" {
			return errors.New("acemq: ReplyTo was given an empty queue name")
		}
		cfg.replyTo = queue
		return nil
	}
}

// DeclaredErrors names the errors the RPC declares, so that Do returns
// these very values (err == ErrNotFound, not only errors.Is). A failure reply
// with a code not given here still returns a *DeclaredError of that code. A
// failure reply without a code whose acemq-error is "NotFound" or
// "NotFound: <text>" (a Python responder's exception class and text) returns
// the NotFound given here; the text is not kept.
func DeclaredErrors(errs ...*DeclaredError) RequesterOption {
	return func(cfg *requesterConfig) error {
		for _, e := range errs {
			if e == nil {
				return errors.New("acemq: DeclaredErrors was given a nil error")
			}
			cfg.declared[e.code] = e
		}
		return nil
	}
}

// RequesterCodec sets the codec requests are encoded with and replies
// decoded with. Default: the connection's; nil is refused.
func RequesterCodec(c acemq.Codec) RequesterOption {
	return func(cfg *requesterConfig) error {
		if c == nil {
			return errors.New("acemq: RequesterCodec was given a nil codec")
		}
		cfg.codec = c
		return nil
	}
}

// RequesterCodecFunc is RequesterCodec for a codec that needs the
// connection, such as one reading a schema registry or a keyring given as a
// ConnOption: build runs in NewRequester (a Client's first Do), and its error
// fails it. nil, or a nil codec from build, is refused.
func RequesterCodecFunc(build func(*acemq.Conn) (acemq.Codec, error)) RequesterOption {
	return func(cfg *requesterConfig) error {
		if build == nil {
			return errors.New("acemq: RequesterCodecFunc was given a nil func")
		}
		c, err := build(cfg.conn)
		if err != nil {
			return err
		}
		return RequesterCodec(c)(cfg)
	}
}
