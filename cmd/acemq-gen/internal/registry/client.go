// Package registry is acemq-gen registry: it pushes the schemas of a set of
// contracts' avro-registered messages to a Confluent schema registry, and
// checks them against what it holds.
package registry

import (
	"cmp"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"time"

	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/ops"
	"github.com/acemq/acemq-gen/generator"
	"github.com/acemq/acemq-gen/runtime/avro"
)

// The environment variables of the registry commands. The password is read
// from the environment only, so it never shows in a process list.
const (
	URLEnv      = "ACEMQ_REGISTRY_URL"
	UserEnv     = "ACEMQ_REGISTRY_USER"
	PasswordEnv = "ACEMQ_REGISTRY_PASSWORD"
)

// Client is the registry o names, with its credentials (--user or the URL's
// user information; the password from ACEMQ_REGISTRY_PASSWORD or the URL),
// TLS roots and timeout.
func (o Options) Client() (*avro.ConfluentRegistry, error) {
	u, err := url.Parse(o.URL)
	if err != nil {
		return nil, errors.New("the --url does not parse as a URL")
	}
	user, pass := o.User, os.Getenv(PasswordEnv)
	if u.User != nil {
		p, _ := u.User.Password()
		user, pass = cmp.Or(user, u.User.Username()), cmp.Or(pass, p)
		u.User = nil
	}
	httpClient, err := o.httpClient()
	if err != nil {
		return nil, err
	}
	opts := []avro.ConfluentOption{avro.WithHTTPClient(httpClient)}
	if user != "" || pass != "" {
		opts = append(opts, avro.WithBasicAuth(user, pass))
	}
	return avro.NewConfluentRegistry(u.String(), opts...)
}

// httpClient sends with o's timeout, trusting --ca when given.
func (o Options) httpClient() (*http.Client, error) {
	c := &http.Client{Timeout: o.Timeout}
	if o.CA == "" {
		return c, nil
	}
	pem, err := os.ReadFile(o.CA)
	if err != nil {
		return nil, fmt.Errorf("reading --ca: %w", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("--ca %s holds no PEM certificate", o.CA)
	}
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.TLSClientConfig = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
	c.Transport = t
	return c, nil
}

// registeredMessages lists the messages of srcs whose codec registers its
// schema (avro-registered: the entry has a Subject); code is
// non-zero when the contracts have errors (printed on stderr).
func registeredMessages(srcs []generator.Source, stderr io.Writer) ([]generator.Entry, int) {
	entries, ds := generator.Catalog(srcs)
	if ops.PrintDiagnostics(ds, stderr) {
		return nil, ops.ExitFindings
	}
	var out []generator.Entry
	for _, e := range entries {
		if e.Subject != "" {
			out = append(out, e)
		}
	}
	if len(out) == 0 {
		fmt.Fprintf(stderr, "acemq-gen registry: no message of the contracts (%s) uses codec avro-registered; the registry has nothing to hold\n",
			ops.Plural(len(entries), "message"))
	}
	return out, ops.ExitOK
}

// refused reports whether err is the registry refusing a schema (invalid,
// or incompatible under the subject's level): a finding, not an outage.
func refused(err error) bool {
	var ce *avro.ConfluentError
	return errors.As(err, &ce) && (ce.StatusCode == http.StatusConflict || ce.StatusCode == http.StatusUnprocessableEntity)
}

// Options name the registry of push and check.
type Options struct {
	URL     string        // the registry's URL; user information moves into basic auth
	User    string        // the basic-auth user ("" the URL's)
	CA      string        // a PEM file of CA certificates to trust instead of the system roots
	Timeout time.Duration // the longest wait for one request
}
