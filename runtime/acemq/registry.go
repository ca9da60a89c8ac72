package acemq

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/acemq/acemq-gen/runtime/internal/redact"
)

// transports maps a URL scheme to the DialFunc that opens it.
var transports = struct {
	sync.RWMutex
	m map[string]DialFunc
}{m: map[string]DialFunc{}}

// RegisterTransport makes Connect open URLs of scheme (such as "amqp", without
// "://") with dial. Registering a scheme again replaces the earlier DialFunc.
// A nil dial panics, because it is a programming error found at init time.
// Safe for concurrent use; usually called from an init function.
func RegisterTransport(scheme string, dial DialFunc) {
	if dial == nil {
		panic(fmt.Sprintf("acemq: RegisterTransport(%q) was given a nil DialFunc", scheme))
	}
	transports.Lock()
	defer transports.Unlock()
	transports.m[strings.ToLower(scheme)] = dial
}

// TransportSchemes returns the registered URL schemes, sorted. memory is
// always among them. Safe for concurrent use.
func TransportSchemes() []string {
	transports.RLock()
	defer transports.RUnlock()
	schemes := make([]string, 0, len(transports.m))
	for s := range transports.m {
		schemes = append(schemes, s)
	}
	slices.Sort(schemes)
	return schemes
}

// dialerFor returns the DialFunc registered for url's scheme.
func dialerFor(url string) (DialFunc, error) {
	scheme, _, ok := strings.Cut(url, "://")
	if !ok || !redact.IsScheme(scheme) {
		return nil, errors.New("acemq: the URL has no scheme: write amqp://user:pass@host:5672/vhost or memory://name " +
			"(it is not shown, as it may hold a password)")
	}
	scheme = strings.ToLower(scheme)
	transports.RLock()
	dial, ok := transports.m[scheme]
	transports.RUnlock()
	if !ok {
		return nil, fmt.Errorf("acemq: no transport is registered for %q; known schemes are %v. "+
			"For a broker, add the blank import _ \"github.com/acemq/acemq-gen/runtime/rabbitmq\"",
			scheme, TransportSchemes())
	}
	return dial, nil
}

// QueueInspector is an optional Transport seam: a transport that can count
// the messages ready in a queue implements it (memory:// does).
type QueueInspector interface {
	// MessageCount returns how many messages of queue are ready for
	// delivery, not counting those delivered and unsettled.
	MessageCount(ctx context.Context, queue string) (int, error)
}

// Puller is an optional Transport seam: a transport that can take one message
// off a queue without a subscription implements it (memory:// does). The
// message is settled as it is taken (auto-acknowledged).
type Puller interface {
	// Pull takes the next ready message of queue; ok is false when the
	// queue is empty.
	Pull(ctx context.Context, queue string) (d Delivery, ok bool, err error)
}
