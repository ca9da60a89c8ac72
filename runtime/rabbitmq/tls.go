package rabbitmq

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"os"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

// WithTLS sets the TLS configuration of an amqps:// connection (trusted
// roots, client certificates, minimum version). The transport copies cfg
// for every dial; ServerName defaults to the URL's host. Default: none, so
// amqps:// trusts the system's roots. Giving it with an amqp:// URL fails
// Connect (or Dial); a nil cfg fails too.
func WithTLS(cfg *tls.Config) acemq.ConnOption {
	return option(tlsExt.Option(cfg), func(c *config) { c.tls, c.tlsSet = cfg, true })
}

// TrustCA makes an amqps:// connection trust the certificate authorities in
// the PEM file at pemFile (and only those), on top of WithTLS's settings if
// given. The file is read when the connection is opened; a file that cannot
// be read or holds no certificate fails Connect (or Dial). Giving it with an
// amqp:// URL fails too.
func TrustCA(pemFile string) acemq.ConnOption {
	return option(caExt.Option(pemFile), func(c *config) { c.caFile = pemFile })
}

// loadCA adds TrustCA's roots to the TLS configuration.
func (c *config) loadCA() error {
	if c.caFile == "" {
		return nil
	}
	pool, err := readCAs(c.caFile)
	if err != nil {
		return err
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if c.tls != nil {
		cfg = c.tls.Clone()
	}
	cfg.RootCAs = pool
	c.tls, c.tlsSet = cfg, true
	return nil
}

// readCAs reads the PEM certificates of file into a pool.
func readCAs(file string) (*x509.CertPool, error) {
	pem, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("rabbitmq.TrustCA cannot read the CA file: %w", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("rabbitmq.TrustCA: %s holds no PEM certificate", file)
	}
	return pool, nil
}

// checkURL parses raw (one host or several) and refuses a malformed URL
// without echoing it (url.Parse's errors quote the whole URL, password
// included), and TLS settings for a plaintext URL.
func (c *config) checkURL(raw string) (hostList, error) {
	l, err := parseHosts(raw)
	if err != nil {
		return hostList{}, fmt.Errorf("the URL is not a valid AMQP URL: %w", err)
	}
	if !c.tlsSet || l.scheme == "amqps" {
		return l, nil
	}
	return hostList{}, fmt.Errorf("rabbitmq.WithTLS or rabbitmq.TrustCA was given but %s is plaintext; use amqps://", l)
}
