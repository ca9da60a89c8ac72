package rabbitmq

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"
)

// dialTarget is where and how one dial connects. amqp091-go is given a
// plaintext amqp:// URL (it reads the credentials, vhost, heartbeat and
// channel_max from it) and the connection the dialer opens: TCP, then TLS
// for an amqps:// URL, then the frame filter, which must read plaintext.
type dialTarget struct {
	amqpURL string      // the URL, amqp:// where it was amqps://
	addr    string      // host:port of an amqps:// URL ("" for amqp://: amqp091-go's)
	tls     *tls.Config // nil for amqp://
}

// dialTarget resolves url (a single host) for a dial. For amqps:// the TLS
// settings are WithTLS's (and TrustCA's), else the URL's cacertfile,
// certfile, keyfile and server_name_indication over the system's roots, as
// amqp091-go would; ServerName defaults to the URL's host.
func (t *Transport) dialTarget(url string) (dialTarget, error) {
	uri, err := amqp.ParseURI(url)
	if err != nil {
		return dialTarget{}, err
	}
	if uri.Scheme != "amqps" {
		return dialTarget{amqpURL: url}, nil
	}
	cfg, err := tlsFor(t.cfg.tls, uri)
	if err != nil {
		return dialTarget{}, err
	}
	return dialTarget{amqpURL: "amqp" + url[strings.Index(url, ":"):],
		addr: net.JoinHostPort(uri.Host, strconv.Itoa(uri.Port)), tls: cfg}, nil
}

// tlsFor is the TLS configuration of one dial to uri: a copy of given, or
// one built from the URL's TLS query parameters.
func tlsFor(given *tls.Config, uri amqp.URI) (*tls.Config, error) {
	cfg, err := given.Clone(), error(nil)
	if cfg == nil {
		cfg, err = tlsFromURI(uri)
	}
	if err == nil && cfg.ServerName == "" {
		cfg.ServerName = uri.Host
	}
	return cfg, err
}

// tlsFromURI builds the TLS configuration amqp091-go builds from an amqps://
// URL's query: cacertfile (else the system's roots), certfile and keyfile
// for a client certificate, server_name_indication.
func tlsFromURI(uri amqp.URI) (*tls.Config, error) {
	cfg := &tls.Config{ServerName: uri.ServerName, MinVersion: tls.VersionTLS12}
	if uri.CACertFile != "" {
		pem, err := os.ReadFile(uri.CACertFile)
		if err != nil {
			return nil, fmt.Errorf("read CA certificate: %w", err)
		}
		cfg.RootCAs = x509.NewCertPool()
		cfg.RootCAs.AppendCertsFromPEM(pem)
	}
	if uri.CertFile != "" && uri.KeyFile != "" {
		cert, err := tls.LoadX509KeyPair(uri.CertFile, uri.KeyFile)
		if err != nil {
			return nil, fmt.Errorf("load client certificate: %w", err)
		}
		cfg.Certificates = []tls.Certificate{cert}
	}
	return cfg, nil
}

// socket is the TCP connection under one dial, kept to abort the handshake
// and as the test seam that drops a connection.
type socket struct {
	target dialTarget
	mu     sync.Mutex
	nc     net.Conn
}

// dialer connects within ctx and bounds the handshakes by ctx's deadline
// (amqp091 clears the deadline once the connection is open); it hands
// amqp091-go the frame filter over the (TLS) connection.
func (s *socket) dialer(ctx context.Context) func(network, addr string) (net.Conn, error) {
	return func(network, addr string) (net.Conn, error) {
		if s.target.addr != "" {
			addr = s.target.addr
		}
		var d net.Dialer
		nc, err := d.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		if deadline, ok := ctx.Deadline(); ok {
			_ = nc.SetDeadline(deadline)
		}
		s.mu.Lock()
		s.nc = nc
		s.mu.Unlock()
		return s.secure(ctx, nc)
	}
}

// secure runs the TLS handshake over nc for amqps:// and puts the frame
// filter on top.
func (s *socket) secure(ctx context.Context, nc net.Conn) (net.Conn, error) {
	if s.target.tls == nil {
		return newFrameFilter(nc), nil
	}
	tc := tls.Client(nc, s.target.tls)
	if err := tc.HandshakeContext(ctx); err != nil {
		_ = nc.Close()
		return nil, err
	}
	return newFrameFilter(tc), nil
}

func (s *socket) get() net.Conn {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.nc
}

// abort fails a handshake in progress.
func (s *socket) abort() {
	if nc := s.get(); nc != nil {
		_ = nc.SetDeadline(time.Unix(1, 0))
	}
}
