package acemq

import (
	"context"
	"errors"

	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// Through returns a connection with c's configuration — codec, origin,
// publish and consume interceptors, observer, logger, retry policy,
// prefetch and extensions (so codec builders that read c, such as
// avro.RegisteredOn or a crypto keyring, work on it too) — over t instead of
// c's transport. Publishers made on it run c's whole publish path (envelope,
// interceptors, header rules, codec, metrics, outcome hooks) and hand the
// final message to t. It is how outbox.Within publishes into a database
// transaction.
//
// The new connection has its own lifetime: closing c does not close it, and
// its Close closes t, not c. Declaring and consuming go to t, which may
// refuse them. Given a nil t, every publish and declaration on the returned
// connection fails saying so. Safe for concurrent use when t is.
func (c *Conn) Through(t driver.Transport) *Conn {
	if t == nil {
		t = refusingTransport{}
	}
	return newConn(t, c.cfg)
}

// errNilThrough is every operation's error on a connection Through was given
// nil for.
var errNilThrough = errors.New("acemq: Conn.Through was given a nil transport")

// refusingTransport is the transport of Through(nil): everything fails.
type refusingTransport struct{}

func (refusingTransport) Publish(context.Context, string, string, driver.Outbound) (PublishResult, error) {
	return PublishResult{}, errNilThrough
}

func (refusingTransport) DeclareQueue(context.Context, string, driver.QueueSpec) error {
	return errNilThrough
}

func (refusingTransport) DeclareExchange(context.Context, string, driver.ExchangeSpec) error {
	return errNilThrough
}

func (refusingTransport) Bind(context.Context, string, string, string) error { return errNilThrough }

func (refusingTransport) Consume(context.Context, string, driver.ConsumeSpec, func(driver.Delivery)) (driver.Subscription, error) {
	return nil, errNilThrough
}

func (refusingTransport) Close() error { return nil }
