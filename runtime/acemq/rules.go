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

// RequirePublishHeaders returns a ConnOption whose publish interceptor refuses
// a payload of type T whose envelope lacks any of the named application
// headers, with the error a Publisher's RequireHeaders gives. Other payload
// types pass. Safe for concurrent use.
func RequirePublishHeaders[T any](names ...string) ConnOption {
	return publishRules[T](required(names))
}

// RequireConsumeHeaders returns a ConnOption whose consume interceptor refuses
// a delivery of messageType (the envelope's type, which publishers set to
// the routing key) that lacks any of the named application headers: the
// message is dead-lettered with "an interceptor refused it: ...". Deliveries
// of other types pass. Safe for concurrent use.
func RequireConsumeHeaders(messageType string, names ...string) ConnOption {
	return consumeRules(messageType, required(names))
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
