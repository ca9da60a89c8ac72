package plan

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/ops"
	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/rabbitmq"
)

// vhostOf is the virtual host an AMQP URL names ("/" when none).
func vhostOf(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "/"
	}
	if v := strings.TrimPrefix(u.Path, "/"); v != "" {
		if un, err := url.PathUnescape(v); err == nil {
			return un
		}
		return v
	}
	return "/"
}

// management reads the management HTTP API at one base URL, its
// credentials sent as basic auth and never printed.
type management struct {
	base       string // without credentials
	user, pass string
	client     *http.Client
}

func newManagement(raw string) (*management, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, errors.New("acemq-gen: --management is not an http or https URL such as http://user:pass@host:15672")
	}
	m := &management{client: &http.Client{Timeout: 30 * time.Second}}
	if u.User != nil {
		m.user = u.User.Username()
		m.pass, _ = u.User.Password()
		u.User = nil
	}
	m.base = strings.TrimRight(u.String(), "/")
	return m, nil
}

func (m *management) get(ctx context.Context, path string, into any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, m.base+path, nil)
	if err != nil {
		return err
	}
	if m.user != "" {
		req.SetBasicAuth(m.user, m.pass)
	}
	resp, err := m.client.Do(req)
	if err != nil {
		return ops.Unreachable(fmt.Errorf("acemq-gen: cannot reach the management API at %s: %w", acemq.RedactURL(m.base), errors.Unwrap(err)))
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return ops.Unreachable(fmt.Errorf("acemq-gen: the management API at %s answered %s for %s", acemq.RedactURL(m.base), resp.Status, path))
	}
	return json.NewDecoder(resp.Body).Decode(into)
}

// managed is an exchange or a queue as the management API lists it
// (exchanges have no exclusive flag).
type managed struct {
	Name       string         `json:"name"`
	Type       string         `json:"type"`
	Durable    bool           `json:"durable"`
	AutoDelete bool           `json:"auto_delete"`
	Exclusive  bool           `json:"exclusive"`
	Arguments  map[string]any `json:"arguments"`
}

// readManagement reads vhost's exchanges, queues and bindings.
func readManagement(ctx context.Context, raw, vhost string) (live, error) {
	m, err := newManagement(raw)
	if err != nil {
		return live{}, err
	}
	v := "/" + url.PathEscape(vhost)
	var exchanges, queues []managed
	var bindings []struct {
		Source          string `json:"source"`
		Destination     string `json:"destination"`
		DestinationType string `json:"destination_type"`
		RoutingKey      string `json:"routing_key"`
	}
	for path, into := range map[string]any{"/api/exchanges" + v: &exchanges, "/api/queues" + v: &queues, "/api/bindings" + v: &bindings} {
		if err := m.get(ctx, path, into); err != nil {
			return live{}, err
		}
	}
	l := live{exchanges: map[string]liveExchange{}, queues: map[string]liveQueue{}}
	for _, e := range exchanges {
		l.exchanges[e.Name] = liveExchange{kind: e.Type, durable: e.Durable, autoDelete: e.AutoDelete, args: e.Arguments}
	}
	for _, q := range queues {
		l.queues[q.Name] = liveQueue{typ: q.Type, durable: q.Durable, autoDelete: q.AutoDelete, exclusive: q.Exclusive, args: q.Arguments}
	}
	for _, b := range bindings {
		if b.DestinationType == "queue" && b.Source != "" {
			l.bindings = append(l.bindings, acemq.DeclaredBinding{Queue: b.Destination, Exchange: b.Source, Key: b.RoutingKey})
		}
	}
	return l, nil
}

// notCheckedByAMQP is what AMQP cannot tell.
var notCheckedByAMQP = []string{
	"bindings (missing or extra)",
	"arguments a queue or exchange has beyond the contract's (extra)",
	"which argument differs when a declare is refused, beyond the broker's message",
}

// compareByAMQP checks each exchange and queue with a passive declare and,
// when it exists, a declare with the contract's arguments, each on a
// throwaway channel: a refusal (406 PRECONDITION_FAILED) is a difference.
// It creates nothing.
func compareByAMQP(ctx context.Context, rawURL string, want acemq.Declarations) ([]difference, []string, error) {
	conn, err := dialAny(rawURL)
	if err != nil {
		return nil, nil, err
	}
	defer conn.Close()
	var diffs []difference
	for _, e := range want.Exchanges {
		d, err := probe(conn, "exchange", e.Name, func(ch *amqp.Channel, passive bool) error {
			if passive {
				return ch.ExchangeDeclarePassive(e.Name, e.Spec.Kind, e.Spec.Durable, e.Spec.AutoDelete, false, false, nil)
			}
			return ch.ExchangeDeclare(e.Name, e.Spec.Kind, e.Spec.Durable, e.Spec.AutoDelete, false, false, amqp.Table(e.Spec.Args))
		})
		if err != nil {
			return nil, nil, err
		}
		if d != nil {
			if d.class == classMissing {
				d.detail, d.exchange = describeExchange(e.Spec), &e
			}
			diffs = append(diffs, *d)
		}
	}
	for _, q := range want.Queues {
		d, err := probe(conn, "queue", q.Name, func(ch *amqp.Channel, passive bool) error {
			if passive {
				_, err := ch.QueueDeclarePassive(q.Name, false, false, false, false, nil)
				return err
			}
			_, err := ch.QueueDeclare(q.Name, q.Spec.Durable, q.Spec.AutoDelete, q.Spec.Exclusive, false, amqp.Table(q.Spec.Args))
			return err
		})
		if err != nil {
			return nil, nil, err
		}
		if d != nil {
			if d.class == classMissing {
				d.detail, d.queue = describeQueue(q.Spec), &q
			}
			diffs = append(diffs, *d)
		}
	}
	return diffs, notCheckedByAMQP, ctx.Err()
}

// dialAny connects to the first host of rawURL that answers, in the order
// written, as the runtime's transport does (one host or several:
// amqp://user:pass@h1:5672,h2:5672/vhost).
func dialAny(rawURL string) (*amqp.Connection, error) {
	urls, err := rabbitmq.HostURLs(rawURL)
	if err != nil {
		return nil, fmt.Errorf("acemq-gen: --url: %w", err)
	}
	var errs []error
	for _, u := range urls {
		conn, err := amqp.Dial(u)
		if err == nil {
			return conn, nil
		}
		errs = append(errs, err)
	}
	return nil, ops.CannotConnect(rawURL, errors.Join(errs...))
}

// probe runs a passive declare, then (when the object exists) the
// confirming one, each on its own channel; a 404 is missing and a 406 is
// different (immutable for a queue, whose arguments RabbitMQ never changes).
func probe(conn *amqp.Connection, kind, name string, declare func(ch *amqp.Channel, passive bool) error) (*difference, error) {
	for _, passive := range []bool{true, false} {
		ch, err := conn.Channel()
		if err != nil {
			return nil, fmt.Errorf("acemq-gen: cannot open a channel: %w", err)
		}
		err = declare(ch, passive)
		_ = ch.Close()
		var ae *amqp.Error
		switch {
		case err == nil:
			continue
		case errors.As(err, &ae) && ae.Code == amqp.NotFound:
			return &difference{class: classMissing, kind: kind, name: name}, nil
		case errors.As(err, &ae) && ae.Code == amqp.PreconditionFailed:
			d := &difference{class: classDifferent, kind: kind, name: name, detail: ae.Reason}
			if kind == "queue" {
				d.class, d.steps = classImmutable, migrationSteps(name)
			}
			return d, nil
		default:
			return nil, fmt.Errorf("acemq-gen: cannot check %s %s: %w", kind, name, err)
		}
	}
	return nil, nil
}
