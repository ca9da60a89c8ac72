package main

import (
	"cmp"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"time"

	"github.com/acemq/acemq-gen/generator"
	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/avro"
)

// The environment variables of the registry commands. The password is read
// from the environment only, so it never shows in a process list.
const (
	registryURLEnv      = "ACEMQ_REGISTRY_URL"
	registryUserEnv     = "ACEMQ_REGISTRY_USER"
	registryPasswordEnv = "ACEMQ_REGISTRY_PASSWORD"
)

// registryOptions are the flags of registry push and check.
type registryOptions struct {
	url, user, ca string
	timeout       time.Duration
	paths         []string
}

// registryCmd is acemq-gen registry push|check.
func registryCmd(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c, _ := lookup("registry")
	if len(args) == 0 {
		return c.usageError(stderr, "name a subcommand: push or check")
	}
	sub := args[0]
	if sub == "-h" || sub == "-help" || sub == "--help" {
		c.printHelp(stdout)
		return exitOK
	}
	run := map[string]func(context.Context, *registrySession) int{
		"push": registryPush, "check": registryCheck}[sub]
	if run == nil {
		return c.usageError(stderr, "unknown subcommand %q%s", sub, didYouMean(suggest(sub, []string{"push", "check"})))
	}
	o, code, ok := parseRegistry(c, sub, args[1:], stdout, stderr)
	if !ok {
		return code
	}
	srcs, ok := readSources(o.paths, stderr)
	if !ok {
		return exitFindings
	}
	reg, err := o.client()
	if err != nil {
		fmt.Fprintf(stderr, "acemq-gen registry %s: %s\n", sub, unprefixed(err))
		return exitUsage
	}
	return run(ctx, &registrySession{sub: sub, reg: reg, where: acemq.RedactURL(o.url), srcs: srcs, stdout: stdout, stderr: stderr})
}

// parseRegistry reads the flags of registry sub; the paths default to the
// current directory.
func parseRegistry(c command, sub string, args []string, stdout, stderr io.Writer) (o registryOptions, code int, ok bool) {
	fs := newFlags(c)
	fs.StringVar(&o.url, "url", os.Getenv(registryURLEnv), "the schema registry's `URL`")
	fs.StringVar(&o.user, "user", os.Getenv(registryUserEnv), "the registry's basic-auth `USER`")
	fs.StringVar(&o.ca, "ca", "", "trust the CA certificates in `FILE` (PEM) instead of the system roots")
	fs.DurationVar(&o.timeout, "timeout", 10*time.Second, "the longest wait for one registry request")
	for {
		if code, ok := parseFlags(c, fs, args, stdout, stderr); !ok {
			return o, code, false
		}
		if fs.NArg() == 0 {
			break
		}
		o.paths, args = append(o.paths, fs.Arg(0)), fs.Args()[1:]
	}
	switch {
	case o.url == "":
		return o, c.usageError(stderr, "registry %s needs --url (or %s), the schema registry's URL", sub, registryURLEnv), false
	case badURLFlag("--url", o.url) != "":
		return o, c.usageError(stderr, "%s", badURLFlag("--url", o.url)), false
	case o.timeout <= 0:
		return o, c.usageError(stderr, "--timeout must be positive"), false
	case len(o.paths) == 0:
		o.paths = []string{"."}
	}
	return o, exitOK, true
}

// client is the registry o names, with its credentials (--user or the URL's
// user information; the password from ACEMQ_REGISTRY_PASSWORD or the URL),
// TLS roots and timeout.
func (o registryOptions) client() (*avro.ConfluentRegistry, error) {
	u, err := url.Parse(o.url)
	if err != nil {
		return nil, errors.New("the --url does not parse as a URL")
	}
	user, pass := o.user, os.Getenv(registryPasswordEnv)
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
func (o registryOptions) httpClient() (*http.Client, error) {
	c := &http.Client{Timeout: o.timeout}
	if o.ca == "" {
		return c, nil
	}
	pem, err := os.ReadFile(o.ca)
	if err != nil {
		return nil, fmt.Errorf("reading --ca: %w", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("--ca %s holds no PEM certificate", o.ca)
	}
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.TLSClientConfig = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
	c.Transport = t
	return c, nil
}

// registeredMessages lists the avro-registered messages of srcs; code is
// non-zero when the contracts have errors (printed on stderr).
func registeredMessages(srcs []generator.Source, stderr io.Writer) ([]generator.Entry, int) {
	entries, ds := generator.Catalog(srcs)
	if printDiagnostics(ds, stderr) {
		return nil, exitFindings
	}
	var out []generator.Entry
	for _, e := range entries {
		if e.Codec == "avro-registered" {
			out = append(out, e)
		}
	}
	if len(out) == 0 {
		fmt.Fprintf(stderr, "acemq-gen registry: no message of the contracts (%s) uses codec avro-registered; the registry has nothing to hold\n",
			plural(len(entries), "message"))
	}
	return out, exitOK
}

// refused reports whether err is the registry refusing a schema (invalid,
// or incompatible under the subject's level): a finding, not an outage.
func refused(err error) bool {
	var ce *avro.ConfluentError
	return errors.As(err, &ce) && (ce.StatusCode == http.StatusConflict || ce.StatusCode == http.StatusUnprocessableEntity)
}
