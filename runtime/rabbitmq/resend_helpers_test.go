package rabbitmq

import (
	"io"
	"net"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
)

// muteProxy forwards TCP connections to a broker; mute makes the
// connections open at that moment swallow everything the broker sends (a
// wedged broker: publishes written, never confirmed), while connections
// opened later work.
type muteProxy struct {
	ln       net.Listener
	upstream string
	mu       sync.Mutex
	muted    []*atomic.Bool
	open     []*atomic.Bool
}

// newMuteProxy proxies to the broker of the single-host amqpURL and returns
// the proxy and the URL that goes through it; it closes at cleanup.
func newMuteProxy(t *testing.T, amqpURL string) (*muteProxy, string) {
	t.Helper()
	ln, upstream, proxied := listenProxy(t, amqpURL)
	p := &muteProxy{ln: ln, upstream: upstream}
	go p.serve()
	return p, proxied
}

// listenProxy opens the listener of a proxy to the broker of the
// single-host amqpURL (closed at cleanup) and returns it, the broker's
// host:port, and the URL that goes through the proxy.
func listenProxy(t *testing.T, amqpURL string) (ln net.Listener, upstream, proxied string) {
	t.Helper()
	u, err := url.Parse(amqpURL)
	if err != nil {
		t.Fatal(err)
	}
	ln, err = net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ln.Close() })
	upstream, u.Host = u.Host, ln.Addr().String()
	return ln, upstream, u.String()
}

func (p *muteProxy) serve() {
	servePairs(p.ln, p.upstream, func(c, up net.Conn) {
		m := new(atomic.Bool)
		p.mu.Lock()
		p.open = append(p.open, m)
		p.mu.Unlock()
		go func() { copyUnlessMuted(c, up, m); _ = c.Close() }()
	})
}

// servePairs accepts connections on ln until it closes, dials upstream for
// each, copies what the client sends upstream, and hands both to back,
// which copies the broker's side back.
func servePairs(ln net.Listener, upstream string, back func(client, up net.Conn)) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		up, err := net.Dial("tcp", upstream)
		if err != nil {
			_ = c.Close()
			continue
		}
		go func() { _, _ = io.Copy(up, c); _ = up.Close() }()
		back(c, up)
	}
}

// copyUnlessMuted copies from src to dst until muted, then discards.
func copyUnlessMuted(dst io.Writer, src io.Reader, muted *atomic.Bool) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 && !muted.Load() {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// mute silences every connection open now.
func (p *muteProxy) mute() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, m := range p.open {
		m.Store(true)
	}
	p.open = nil
}
