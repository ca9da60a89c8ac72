package rabbitmq

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

// dialTimeout bounds the TCP connect and AMQP handshake of one dial.
const dialTimeout = 30 * time.Second

// ErrClosed is returned by every operation on a Transport after Close; it
// is acemq.ErrClosed.
var ErrClosed = acemq.ErrClosed

// Transport is the RabbitMQ implementation of driver.Transport. Create it with
// Dial or through acemq.Connect with an amqp:// or amqps:// URL. Safe for
// concurrent use.
type Transport struct {
	cfg    config
	window *window
	topo   topology
	done   chan struct{} // closed by Close
	wg     sync.WaitGroup

	mu      sync.Mutex
	url     string   // as given (test seam: setURL)
	hosts   hostList // url's hosts, in the order they are dialled
	at      int      // index in hosts of the live (or last) connection
	conn    *amqp.Connection
	ready   chan struct{} // closed while conn is usable
	closed  bool
	subs    map[*subscription]struct{}
	netConn net.Conn    // the socket under conn (test seam)
	block   *blockState // non-nil while the broker blocks conn
	gaveUp  error       // set when the connection was lost WithoutRecovery
	emitMu  sync.Mutex  // OnRecovery events one at a time

	dropped        atomic.Pointer[error] // why dropWedged dropped the live connection
	frameMax       atomic.Int64          // frame_max negotiated on the last connection (0: none)
	redeclaresLeft atomic.Int64          // declarations recovery could not restore yet

	pubMu sync.Mutex
	pubs  [2]*pubChannel // by lane
}

func dial(ctx context.Context, url string, cfg config) (*Transport, error) {
	hosts, err := cfg.checkURL(url)
	if err != nil {
		return nil, err
	}
	if cfg.order == hostsShuffled {
		hosts = hosts.shuffled()
	}
	t := &Transport{url: url, hosts: hosts, cfg: cfg, window: newWindow(cfg.maxOutstanding),
		done: make(chan struct{}), ready: make(chan struct{}), subs: map[*subscription]struct{}{}}
	link, err := t.openAny(ctx, 0)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", hosts, err)
	}
	t.markUp(link, nil)
	return t, nil
}

// link is one dialled connection: the AMQP connection, the socket under it
// and its connection.blocked notifications, registered right after the
// handshake so none is missed.
type link struct {
	conn   *amqp.Connection
	nc     net.Conn
	blocks chan amqp.Blocking
}

// openAny dials the hosts of the URL in turn, starting with the one at
// index from, and returns the first connection that opens. It tries each
// host once; when none answers, its error names every host (without the
// password) with its failure.
func (t *Transport) openAny(ctx context.Context, from int) (link, error) {
	hosts := t.dialHosts()
	var errs []error
	for i := range hosts.urls {
		at := (from + i) % len(hosts.urls)
		l, err := t.open(ctx, hosts.urls[at])
		if err == nil {
			t.setAt(at)
			return l, nil
		}
		if ctx.Err() != nil || len(hosts.urls) == 1 {
			return link{}, err
		}
		errs = append(errs, fmt.Errorf("%s: %w", hosts.hosts[at], err))
	}
	return link{}, fmt.Errorf("no host of %d answered: %w", len(hosts.urls), errors.Join(errs...))
}

// open dials the broker at the single-host url once. The TCP connect, TLS
// and AMQP handshakes are bounded by ctx and dialTimeout; cancelling ctx
// aborts them.
func (t *Transport) open(ctx context.Context, url string) (link, error) {
	ctx, cancel := context.WithTimeout(ctx, dialTimeout)
	defer cancel()
	target, err := t.dialTarget(url)
	if err != nil {
		return link{}, err
	}
	s := &socket{target: target}
	stop := context.AfterFunc(ctx, s.abort)
	conn, err := amqp.DialConfig(target.amqpURL, amqp.Config{Properties: t.properties(), Dial: s.dialer(ctx)})
	if err != nil {
		stop()
		return link{}, err
	}
	blocks := conn.NotifyBlocked(make(chan amqp.Blocking, 4))
	if !stop() { // aborted after the handshake finished
		_ = conn.Close()
		return link{}, ctx.Err()
	}
	return link{conn: conn, nc: s.get(), blocks: blocks}, nil
}

func (t *Transport) properties() amqp.Table {
	props := amqp.NewConnectionProperties()
	props["product"] = "AceMQ for Go"
	if t.cfg.name != "" {
		props.SetClientConnectionName(t.cfg.name)
	}
	return props
}

// markUp makes l the live connection, unblocked, and starts watching it
// and retrying the declarations in later (refused by the recovery);
// after Close it closes the connection instead and returns false.
func (t *Transport) markUp(l link, later []topoOp) bool {
	closes := l.conn.NotifyClose(make(chan *amqp.Error, 1))
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		_ = l.conn.Close()
		return false
	}
	t.conn, t.netConn = l.conn, l.nc
	t.frameMax.Store(int64(l.conn.Config.FrameSize))
	t.clearBlockLocked()
	close(t.ready)
	t.wg.Add(2)
	go t.watch(l.conn, closes)
	go t.watchBlocks(l.conn, l.blocks)
	if len(later) > 0 {
		t.wg.Add(1)
		go t.redeclareLater(l.conn, later)
	}
	return true
}

// markDown forgets conn if it is still the live one; it reports whether it was.
func (t *Transport) markDown(conn *amqp.Connection) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.conn != conn || t.closed {
		return false
	}
	t.conn = nil
	t.clearBlockLocked()
	t.ready = make(chan struct{})
	return true
}

// connection returns the live connection, waiting for recovery while it is
// down, as long as ctx allows.
func (t *Transport) connection(ctx context.Context) (*amqp.Connection, error) {
	for {
		t.mu.Lock()
		conn, ready, closed, gaveUp := t.conn, t.ready, t.closed, t.gaveUp
		t.mu.Unlock()
		if closed {
			return nil, ErrClosed
		}
		if gaveUp != nil {
			return nil, gaveUp
		}
		if conn != nil && !conn.IsClosed() {
			return conn, nil
		}
		if err := t.waitReady(ctx, ready); err != nil {
			return nil, err
		}
	}
}

func (t *Transport) waitReady(ctx context.Context, ready chan struct{}) error {
	select {
	case <-ready:
		return nil
	case <-t.done:
		return ErrClosed
	case <-ctx.Done():
		return fmt.Errorf("the connection to RabbitMQ is down and did not recover in time: %w", ctx.Err())
	}
}

// withChannel runs fn on a channel of its own, closed afterwards, so a
// channel error (such as PRECONDITION_FAILED) kills only that channel. A
// spent ctx runs nothing; a blocked connection is waited out within ctx.
func (t *Transport) withChannel(ctx context.Context, fn func(*amqp.Channel) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := t.waitToDeclare(ctx); err != nil {
		return err
	}
	return t.onOwnChannel(ctx, fn)
}

// onOwnChannel runs fn on a new channel of the live connection, again on the
// recovered connection when the connection drops under it.
func (t *Transport) onOwnChannel(ctx context.Context, fn func(*amqp.Channel) error) error {
	for {
		conn, err := t.connection(ctx)
		if err != nil {
			return err
		}
		ch, err := conn.Channel()
		if errors.Is(err, amqp.ErrClosed) {
			continue // lost between the check and the open: wait for recovery
		}
		if err != nil {
			return err
		}
		err = fn(ch)
		_ = ch.Close()
		if !errors.Is(err, amqp.ErrClosed) || !conn.IsClosed() {
			return err
		}
	}
}

// Close closes the connection, every subscription and the publish channel.
// Publishes waiting for a confirm fail. Idempotent.
func (t *Transport) Close() error {
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return nil
	}
	t.closed = true
	conn, nc := t.conn, t.netConn
	close(t.done)
	t.mu.Unlock()
	var err error
	if conn != nil {
		wedged := time.AfterFunc(t.cfg.confirmTimeout, func() { _ = nc.Close() })
		err = conn.Close()
		wedged.Stop()
	}
	t.wg.Wait()
	if errors.Is(err, amqp.ErrClosed) {
		err = nil
	}
	return err
}

func (t *Transport) dialURL() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.url
}

// dialHosts returns the hosts redials go to.
func (t *Transport) dialHosts() hostList {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.hosts
}

// setAt records which host the connection being opened is on.
func (t *Transport) setAt(at int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.at = at
}

// nextHost is where a redial starts: the host after the one whose connection
// was lost, so a dead node is tried last.
func (t *Transport) nextHost() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return (t.at + 1) % len(t.hosts.urls)
}

// Hosts returns the host:port of every host the transport dials, in the
// order it tries them, and the index of the one it is (or was last)
// connected to.
func (t *Transport) Hosts() (hosts []string, connected int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]string(nil), t.hosts.hosts...), t.at
}

// PendingRedeclares returns how many declarations (queues, exchanges,
// bindings) the last recovery could not restore and the transport is still
// retrying in the background (a classic queue whose cluster node is down:
// RabbitMQ refuses to redeclare it until the node is back). 0 when the
// topology is whole.
func (t *Transport) PendingRedeclares() int { return int(t.redeclaresLeft.Load()) }

func (t *Transport) setPendingRedeclares(n int) { t.redeclaresLeft.Store(int64(n)) }

func (t *Transport) isClosed() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.closed
}
