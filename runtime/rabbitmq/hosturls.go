package rabbitmq

import "fmt"

// HostURLs returns one single-host URL for each host raw lists
// (amqp://user:pass@h1:5672,h2:5672/vhost gives amqp://user:pass@h1:5672/vhost
// and amqp://user:pass@h2:5672/vhost), in the order written, each with raw's
// credentials, virtual host and query: for a tool that dials with
// amqp091-go itself and tries the hosts in turn, as Dial does. It parses raw
// as Dial does and its errors, like Dial's, never quote it.
func HostURLs(raw string) ([]string, error) {
	l, err := parseHosts(raw)
	if err != nil {
		return nil, fmt.Errorf("rabbitmq: the URL is not a valid AMQP URL: %w", err)
	}
	return append([]string(nil), l.urls...), nil
}
