package acemq

import (
	"errors"
	"fmt"
	"strings"
)

// ConnOptions combines opts into one ConnOption that applies them in order,
// stopping at the first error; nil entries are skipped. Generated packages
// return their contract's rules this way (Rules()).
func ConnOptions(opts ...ConnOption) ConnOption {
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

// errNoService refuses an event subscription without a service name: the
// queue would be shared by accident.
var errNoService = errors.New("acemq: an event subscription needs the subscribing service's name (it names the queue <service>.<routing key>)")

// SubscriberQueue returns the queue on which service consumes the events of
// routingKey: "<service>.<routingKey>". An empty or blank service, or one
// with characters a queue name cannot hold, is refused.
func SubscriberQueue(service, routingKey string) (string, error) {
	if strings.TrimSpace(service) == "" {
		return "", errNoService
	}
	if strings.ContainsAny(service, " \t\r\n*#") || strings.HasPrefix(service, "amq.") {
		return "", fmt.Errorf("acemq: bad service name %q: a queue name part without spaces or wildcards, not starting with amq.", service)
	}
	return service + "." + routingKey, nil
}
