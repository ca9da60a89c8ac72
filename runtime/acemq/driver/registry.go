package driver

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/acemq/acemq-gen/runtime/internal/redact"
)

// Extensions is a read-only view of the extension values given to acemq.Connect.
type Extensions struct {
	m map[any]any
}

// transports maps a URL scheme to the DialFunc that opens it.
var transports = struct {
	sync.RWMutex
	m map[string]DialFunc
}{m: map[string]DialFunc{}}

// RegisterTransport makes acemq.Connect open URLs of scheme (such as "amqp", without
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
	return slices.Sorted(maps.Keys(transports.m))
}

// Dialer returns the DialFunc registered for url's scheme.
func Dialer(url string) (DialFunc, error) {
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

// DialFunc opens a Transport for url. ext carries the connection's options
// that belong to packages outside acemq (see acemq.Extension).
type DialFunc func(ctx context.Context, url string, ext Extensions) (Transport, error)

// NewExtensions wraps the extension values of a connection, keyed by their
// acemq.Extension, for a DialFunc. The map is not copied and must not change.
func NewExtensions(m map[any]any) Extensions { return Extensions{m: m} }

// Value returns the value stored under key, or nil.
func (x Extensions) Value(key any) any { return x.m[key] }
