package rabbitmq

import (
	"crypto/tls"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// Defaults of the options below.
const (
	// DefaultMaxOutstandingPublishes bounds unconfirmed publishes per
	// connection (the family's Java/.NET number).
	DefaultMaxOutstandingPublishes = 1000
	// DefaultRecoveryDelayMin is the wait before the first redial.
	DefaultRecoveryDelayMin = time.Second
	// DefaultRecoveryDelayMax caps the doubling wait between redials.
	DefaultRecoveryDelayMax = 30 * time.Second
)

// confirmMode is how publishes are confirmed; it is a type so WithoutConfirms
// takes no bare boolean.
type confirmMode int

const (
	confirmsOn confirmMode = iota
	confirmsOff
)

type delayRange struct{ min, max time.Duration }

// recoveryMode is whether a lost connection is redialled; it is a type so
// WithoutRecovery takes no bare boolean.
type recoveryMode int

const (
	recoveryOn recoveryMode = iota
	recoveryOff
)

var (
	maxOutstandingExt = acemq.NewExtension[int]("rabbitmq.MaxOutstandingPublishes")
	confirmExt        = acemq.NewExtension[confirmMode]("rabbitmq.WithoutConfirms")
	onRecoveryExt     = acemq.NewExtension[func(RecoveryEvent)]("rabbitmq.OnRecovery")
	nameExt           = acemq.NewExtension[string]("rabbitmq.Name")
	delayExt          = acemq.NewExtension[delayRange]("rabbitmq.RecoveryDelay")
	recoveryExt       = acemq.NewExtension[recoveryMode]("rabbitmq.WithoutRecovery")
	tlsExt            = acemq.NewExtension[*tls.Config]("rabbitmq.WithTLS")
	caExt             = acemq.NewExtension[string]("rabbitmq.TrustCA")
)

// MaxOutstandingPublishes bounds how many publishes may wait for the
// broker's confirm at once on the connection (default 1000). When the window
// is full a publish waits as long as its ctx allows, then fails with an error
// naming MaxOutstandingPublishes and how many publishes are waiting. n must be
// at least 1; a smaller n fails Connect (or Dial).
func MaxOutstandingPublishes(n int) acemq.ConnOption {
	return option(maxOutstandingExt.Option(n), func(c *config) { c.maxOutstanding = n })
}

// WithoutConfirms publishes without publisher confirms: Publish returns once
// the message is written, with Confirmed false and Routed true. Default: off
// (confirms on).
func WithoutConfirms() acemq.ConnOption {
	return option(confirmExt.Option(confirmsOff), func(c *config) { c.confirms = false })
}

// OnRecovery calls fn for every recovery event (lost, retrying, recovered,
// gave-up, blocked, unblocked) from the transport's own goroutines, one event
// at a time and in order;
// fn should return quickly and must not close the transport or its
// connection (Close waits for that goroutine). Default: none. A nil fn fails
// Connect (or Dial).
func OnRecovery(fn func(RecoveryEvent)) acemq.ConnOption {
	return option(onRecoveryExt.Option(fn), func(c *config) { c.onRecovery = fn })
}

// Name sets the connection_name the broker shows for this connection.
// Default: none (the client properties say "AceMQ for Go").
func Name(s string) acemq.ConnOption {
	return option(nameExt.Option(s), func(c *config) { c.name = s })
}

// RecoveryDelay sets the wait before the first redial after the connection
// is lost (min) and the cap of the doubling wait between later ones (max).
// Default 1 s doubling to 30 s. Both must be positive and min <= max; other
// values fail Connect (or Dial).
func RecoveryDelay(min, max time.Duration) acemq.ConnOption {
	d := delayRange{min: min, max: max}
	return option(delayExt.Option(d), func(c *config) { c.delay = d })
}

// WithoutRecovery turns recovery off: when the connection is lost the
// transport reports RecoveryLost then RecoveryGaveUp and stays down; every
// later call fails at once. Default: recovery on.
func WithoutRecovery() acemq.ConnOption {
	return option(recoveryExt.Option(recoveryOff), func(c *config) { c.recovery = recoveryOff })
}

// config is the transport's resolved settings.
type config struct {
	maxOutstanding int
	confirms       bool
	onRecovery     func(RecoveryEvent)
	name           string
	delay          delayRange
	recovery       recoveryMode
	tls            *tls.Config // WithTLS's, with TrustCA's roots once finished
	tlsSet         bool        // WithTLS was given (perhaps nil, which is refused)
	caFile         string
	order          hostOrder // ShuffleHosts
	confirmTimeout time.Duration
	nackRetries    int
	stallTimeout   time.Duration // ChannelStallTimeout
}

func defaultConfig() config {
	return config{maxOutstanding: DefaultMaxOutstandingPublishes, confirms: true,
		onRecovery: func(RecoveryEvent) {}, delay: delayRange{DefaultRecoveryDelayMin, DefaultRecoveryDelayMax},
		confirmTimeout: DefaultConfirmTimeout, nackRetries: DefaultNackRetries, stallTimeout: DefaultChannelStallTimeout}
}

// configFrom reads and validates the rabbitmq options among ext (the
// options given to acemq.Connect).
func configFrom(ext driver.Extensions) (config, error) {
	c := defaultConfig()
	if n, ok := maxOutstandingExt.Of(ext); ok {
		c.maxOutstanding = n
	}
	if m, ok := confirmExt.Of(ext); ok {
		c.confirms = m == confirmsOn
	}
	if fn, ok := onRecoveryExt.Of(ext); ok {
		c.onRecovery = fn
	}
	c.name, _ = nameExt.Of(ext)
	if d, ok := delayExt.Of(ext); ok {
		c.delay = d
	}
	c.readConnectionOptions(ext)
	c.readResendOptions(ext)
	err := c.finish()
	return c, err
}

// readConnectionOptions reads the recovery and TLS options among ext.
func (c *config) readConnectionOptions(ext driver.Extensions) {
	if m, ok := recoveryExt.Of(ext); ok {
		c.recovery = m
	}
	c.tls, c.tlsSet = tlsExt.Of(ext)
	c.caFile, _ = caExt.Of(ext)
	c.order, _ = shuffleExt.Of(ext)
}

// finish validates c and loads TrustCA's file.
func (c *config) finish() error {
	if err := c.validate(); err != nil {
		return err
	}
	return c.loadCA()
}

func (c config) validate() error {
	if c.maxOutstanding < 1 {
		return fmt.Errorf("rabbitmq.MaxOutstandingPublishes must be at least 1, got %d", c.maxOutstanding)
	}
	if c.onRecovery == nil {
		return errors.New("rabbitmq.OnRecovery was given a nil function")
	}
	if c.delay.min <= 0 || c.delay.max < c.delay.min {
		return fmt.Errorf("rabbitmq.RecoveryDelay needs 0 < min <= max, got %v and %v", c.delay.min, c.delay.max)
	}
	if c.tlsSet && c.tls == nil {
		return errors.New("rabbitmq.WithTLS was given a nil *tls.Config")
	}
	return c.validateResend()
}

// dialing holds the config a Dial call is filling in, keyed by the pointer
// its options are applied to. Options given to acemq.Connect store their value
// under their Extension instead.
var dialing sync.Map

// option makes a ConnOption (C is acemq's unexported connection config,
// inferred) that stores its value through store for Connect, or sets it on
// the config of the Dial call applying it.
func option[C any](store func(*C) error, set func(*config)) func(*C) error {
	return func(target *C) error {
		if c, ok := dialing.Load(target); ok {
			set(c.(*config))
			return nil
		}
		return store(target)
	}
}

// applyForDial applies one option to c: rabbitmq options set their value,
// options of other packages have nothing to set on a transport.
func applyForDial[C any](opt func(*C) error, c *config) error {
	target := new(C)
	dialing.Store(target, c)
	defer dialing.Delete(target)
	return opt(target)
}

// The kinds of RecoveryEvent, in the order a recovery goes through them
// (the family's names).
const (
	// RecoveryLost: the connection dropped; publishes and declares wait.
	RecoveryLost = "lost"
	// RecoveryRetrying: a redial is about to be attempted (Attempt counts
	// from 1; Err is the previous attempt's failure, if any).
	RecoveryRetrying = "retrying"
	// RecoveryRecovered: connected again, topology redeclared and every
	// subscription resumed (Attempt is the successful one; Err joins
	// redeclarations and resumptions that failed, if any).
	RecoveryRecovered = "recovered"
	// RecoveryGaveUp: the connection was lost and will not be redialled
	// (WithoutRecovery); Err says why it was lost. The transport stays down.
	RecoveryGaveUp = "gave-up"
	// RecoveryBlocked: the broker blocked the connection (a memory or disk
	// alarm); Reason is the broker's, Err an *acemq.ConnectionBlockedError.
	// Publishes wait until RecoveryUnblocked, as long as their ctx allows.
	RecoveryBlocked = "blocked"
	// RecoveryUnblocked: the broker lifted the block; publishing resumes.
	RecoveryUnblocked = "unblocked"
)

// RecoveryEvent is one step of connection recovery, given to OnRecovery.
type RecoveryEvent struct {
	// Kind is RecoveryLost, RecoveryRetrying, RecoveryRecovered,
	// RecoveryGaveUp, RecoveryBlocked or RecoveryUnblocked.
	Kind string
	// Attempt counts redials from 1 (0 on RecoveryLost).
	Attempt int
	// Err is why the connection was lost, why the previous redial failed,
	// what could not be restored or why the connection is blocked,
	// depending on Kind; nil when none.
	Err error
	// Reason is the broker's reason on RecoveryBlocked (such as "low on
	// memory"); empty otherwise.
	Reason string
}
