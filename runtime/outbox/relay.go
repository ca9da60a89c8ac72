package outbox

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"

	"github.com/acemq/acemq-gen/runtime/internal/option"
)

// Relay publishes an outbox table's committed rows to the broker of its
// connection and removes each once the broker confirmed it. Several relays
// (replicas) may run on one table. Safe for concurrent use; Run it once.
type Relay struct {
	conn  *acemq.Conn
	store *Store
	cfg   relayConfig
	err   error
	wake  chan struct{}

	published atomic.Int64
	failed    atomic.Int64
	retired   atomic.Int64

	// beforeMark, when set (tests), runs after a batch was published and
	// before it is marked; an error abandons the batch unmarked, as a relay
	// killed at that moment would.
	beforeMark func(ctx context.Context, published int) error
	// outageLogged keeps an outage to one log line until it ends.
	outageLogged atomic.Bool
	// slowAfter is how long a batch's publishes may take before the relay
	// logs that it still waits (slowBatchAfter; tests shorten it).
	slowAfter time.Duration
}

// slowBatchAfter is how long a batch's publishes and confirms may take
// before the relay logs that it is still waiting for the broker (blocked by
// an alarm, or a publish that does not return): a stuck relay is never
// silent.
const slowBatchAfter = 30 * time.Second

// NewRelay returns a relay of store's table to conn's broker. It publishes
// through conn's transport, pipelined when the transport is an
// driver.AsyncPublisher (memory:// and RabbitMQ are), bypassing conn's
// publish chain: the rows already are the wire messages. Its metrics go to
// conn's observer (MetricTotal, MetricLag). Start it with Run.
func NewRelay(conn *acemq.Conn, store *Store, opts ...RelayOption) *Relay {
	r := &Relay{conn: conn, store: store, cfg: defaultRelayConfig(), wake: make(chan struct{}, 1), slowAfter: slowBatchAfter}
	r.err = r.configure(opts)
	return r
}

// configure applies opts and checks the relay can run.
func (r *Relay) configure(opts []RelayOption) error {
	if err := option.ApplyChecked(&r.cfg, opts, errors.New("acemq: outbox: a relay option is nil")); err != nil {
		return err
	}
	if r.conn == nil {
		return errors.New("acemq: outbox.NewRelay was given a nil connection")
	}
	if err := r.store.usable(); err != nil {
		return err
	}
	if r.store.db == nil {
		return errNoDB
	}
	return nil
}

// Stats are a relay's counts since it was made.
type Stats struct {
	Published int64 // rows confirmed by the broker
	Failed    int64 // refused publishes (each costs the row an attempt)
	Retired   int64 // rows retired after MaxAttempts refusals
}

// Stats returns the relay's counts so far.
func (r *Relay) Stats() Stats {
	return Stats{Published: r.published.Load(), Failed: r.failed.Load(), Retired: r.retired.Load()}
}

// Run relays until ctx ends, then returns nil; it returns an error at once
// only for an invalid option or store. It wakes when a transaction that
// wrote the table commits (LISTEN/NOTIFY, when the database driver is pgx)
// and every PollInterval otherwise, and publishes until no committed row is
// left. An outage of the broker or of the database is waited out with a
// backoff (50 ms doubling up to MaxBackoff), logged once on conn's logger.
func (r *Relay) Run(ctx context.Context) error {
	if r.err != nil {
		return r.err
	}
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	if !r.cfg.pollOnly {
		wg.Go(func() { r.listen(ctx) })
	}
	defer wg.Wait()
	defer cancel()
	r.loop(ctx)
	return nil
}

// loop sweeps while there is work, waits otherwise.
func (r *Relay) loop(ctx context.Context) {
	b := newBackoff(r.cfg.maxBackoff)
	lastPrune := time.Time{}
	for ctx.Err() == nil {
		more, err := r.sweep(ctx)
		if err != nil {
			r.outage(ctx, err, b)
			continue
		}
		r.recovered(b)
		if more {
			continue
		}
		if r.cfg.retain > 0 && time.Since(lastPrune) >= r.cfg.poll {
			r.prune(ctx)
			lastPrune = time.Now()
		}
		r.idle(ctx)
	}
}

// outage logs the first error of an outage and waits the next backoff.
func (r *Relay) outage(ctx context.Context, err error, b *backoff) {
	if ctx.Err() != nil {
		return
	}
	if !r.outageLogged.Swap(true) {
		r.conn.Logger().Warn("acemq: outbox relay waits out an outage", "table", r.store.table.raw, "error", err)
	}
	b.wait(ctx)
}

// recovered ends an outage.
func (r *Relay) recovered(b *backoff) {
	if r.outageLogged.Swap(false) {
		r.conn.Logger().Info("acemq: outbox relay recovered", "table", r.store.table.raw)
	}
	b.reset()
}

// idle waits for a notification, the poll interval or the end of ctx.
func (r *Relay) idle(ctx context.Context) {
	t := time.NewTimer(r.cfg.poll)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-r.wake:
	case <-t.C:
	}
}

// signal wakes the loop (never blocks; one pending wake is enough).
func (r *Relay) signal() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// backoff is the wait between tries during an outage.
type backoff struct {
	next, max time.Duration
}

const minBackoff = 50 * time.Millisecond

func newBackoff(max time.Duration) *backoff { return &backoff{next: minBackoff, max: max} }

func (b *backoff) reset() { b.next = minBackoff }

// wait sleeps the current backoff (or until ctx ends) and doubles it.
func (b *backoff) wait(ctx context.Context) {
	t := time.NewTimer(b.next)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
	b.next = min(b.next*2, b.max)
}
