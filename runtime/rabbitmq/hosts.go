package rabbitmq

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net/url"
	"strconv"
	"strings"

	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

var shuffleExt = acemq.NewExtension[hostOrder]("rabbitmq.ShuffleHosts")

// hostOrder is the order the hosts of a URL are dialled in; it is a type so
// ShuffleHosts takes no bare boolean.
type hostOrder int

const (
	hostsInOrder hostOrder = iota
	hostsShuffled
)

// ShuffleHosts dials the hosts of a URL that lists several
// (amqp://user:pass@h1:5672,h2:5672,h3:5672/vhost) in a random order, chosen
// once when the transport is created, instead of the order written, so the
// connections of many processes spread over a cluster's nodes. Recovery still
// tries every host in turn, starting after the one that was lost. Default: in
// the order written. No effect on a URL with one host.
func ShuffleHosts() acemq.ConnOption {
	return option(shuffleExt.Option(hostsShuffled), func(c *config) { c.order = hostsShuffled })
}

// hostList is a parsed AMQP URL: one dialable single-host URL per host its
// authority lists, with the credentials, vhost and query of the whole URL.
type hostList struct {
	scheme string   // amqp or amqps
	urls   []string // one single-host URL per host, password included
	hosts  []string // host:port of each, for messages
	vhost  string   // "/" or "/name", for messages
}

// parseHosts parses raw, whose authority may list several hosts separated by
// commas. Its errors never quote raw (which holds the password); a password
// with an unencoded '/', '?', '#' or '@' is refused first
// (acemq.ErrURLCredentialsNotEncoded), before it could be read as a host.
func parseHosts(raw string) (hostList, error) {
	if err := acemq.CheckURL(raw); err != nil {
		return hostList{}, err
	}
	scheme, rest, ok := strings.Cut(raw, "://")
	if !ok {
		return hostList{}, errors.New("it has no scheme: write amqp://user:pass@host:5672/vhost")
	}
	scheme = strings.ToLower(scheme)
	if scheme != "amqp" && scheme != "amqps" {
		if len(scheme) > 10 || strings.Trim(scheme, "abcdefghijklmnopqrstuvwxyz") != "" {
			return hostList{}, errors.New("its scheme is neither amqp nor amqps (not shown: it is not a scheme)")
		}
		return hostList{}, fmt.Errorf("its scheme %q is neither amqp nor amqps", scheme)
	}
	if strings.Contains(rest, "://") {
		return hostList{}, fmt.Errorf("it mixes schemes (a second scheme:// appears after %s://): "+
			"every host of one URL shares its scheme, as in %s://user:pass@h1:5672,h2:5672/vhost", scheme, scheme)
	}
	authority, tail := rest, ""
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		authority, tail = rest[:i], rest[i:]
	}
	userinfo, hostPart := "", authority
	if i := strings.LastIndex(authority, "@"); i >= 0 {
		userinfo, hostPart = authority[:i+1], authority[i+1:]
	}
	return buildHostList(scheme, userinfo, strings.Split(hostPart, ","), tail)
}

// buildHostList makes one single-host URL of each of hosts and checks it.
func buildHostList(scheme, userinfo string, hosts []string, tail string) (hostList, error) {
	l := hostList{scheme: scheme}
	for i, h := range hosts {
		where := "the host"
		if len(hosts) > 1 {
			where = fmt.Sprintf("host %d of %d", i+1, len(hosts))
		}
		if strings.TrimSpace(h) == "" {
			return hostList{}, fmt.Errorf("%s is empty: write %s://user:pass@h1:5672,h2:5672/vhost", where, scheme)
		}
		single := scheme + "://" + userinfo + h + tail
		u, err := parseOne(single)
		if err != nil && userinfo == "" { // h may be user:password without its '@'
			return hostList{}, fmt.Errorf("%s is not valid: %w (not shown: without an '@' it may be user:password)", where, err)
		}
		if err != nil {
			return hostList{}, fmt.Errorf("%s (%s) is not valid: %w", where, h, err)
		}
		l.urls = append(l.urls, single)
		l.hosts = append(l.hosts, u.Host+":"+strconv.Itoa(u.Port))
		l.vhost = "/" + strings.TrimPrefix(u.Vhost, "/")
	}
	return l, nil
}

// parseOne parses a single-host URL and checks its port, without quoting
// any of it (url.Parse's errors quote the URL, or the bad escape or port
// of a password).
func parseOne(single string) (amqp.URI, error) {
	u, err := amqp.ParseURI(single)
	if err != nil {
		return amqp.URI{}, describe(err)
	}
	if u.Port < 1 || u.Port > 65535 {
		return amqp.URI{}, fmt.Errorf("port %d is out of range 1-65535", u.Port)
	}
	if u.Host == "" {
		return amqp.URI{}, errors.New("it names no host")
	}
	return u, nil
}

// describe says what is wrong with a URL without quoting any of it.
func describe(err error) error {
	var esc url.EscapeError
	var host url.InvalidHostError
	switch {
	case errors.As(err, &esc):
		return errors.New("invalid URL escape: a '%' not followed by two hex digits (percent-encode a '%' as %25)")
	case errors.As(err, &host):
		return errors.New("invalid character in the host name")
	case strings.Contains(err.Error(), "invalid port"):
		return errors.New("invalid port: not a number from 1 to 65535")
	case strings.Contains(err.Error(), "invalid userinfo"):
		return errors.New("invalid character in the user name or password (percent-encode it)")
	}
	return errors.New("it does not parse as an AMQP URL")
}

// String is the URL without the password: scheme://h1:5672,h2:5672/vhost.
func (l hostList) String() string {
	return l.scheme + "://" + strings.Join(l.hosts, ",") + l.vhost
}

// shuffled returns l with its hosts in a random order.
func (l hostList) shuffled() hostList {
	urls, hosts := append([]string(nil), l.urls...), append([]string(nil), l.hosts...)
	rand.Shuffle(len(urls), func(i, j int) {
		urls[i], urls[j] = urls[j], urls[i]
		hosts[i], hosts[j] = hosts[j], hosts[i]
	})
	l.urls, l.hosts = urls, hosts
	return l
}
