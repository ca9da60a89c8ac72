package outbox

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
)

// errNoListen is why a relay only polls: its database driver is not pgx.
var errNoListen = errors.New("acemq: outbox: the database driver is not pgx (github.com/jackc/pgx/v5/stdlib); the relay polls every PollInterval instead of listening")

// pgxConn is what the pgx stdlib driver's connections give: the native
// connection, on which LISTEN works.
type pgxConn interface{ Conn() *pgx.Conn }

// listen keeps a LISTEN on the table's channel open on a connection of the
// store's pool, waking the relay at every notification and after every
// (re)connection, until ctx ends. A lost connection is reopened with the
// relay's backoff; without the pgx driver it returns at once (polling only).
func (r *Relay) listen(ctx context.Context) {
	b := newBackoff(r.cfg.maxBackoff)
	for ctx.Err() == nil {
		err := r.listenOnce(ctx, b)
		if errors.Is(err, errNoListen) {
			r.conn.Logger().Info(errNoListen.Error(), "table", r.store.table.raw)
			return
		}
		b.wait(ctx)
	}
}

// listenOnce listens on one connection until it fails or ctx ends. The
// connection is always discarded afterwards (it still LISTENs).
func (r *Relay) listenOnce(ctx context.Context, b *backoff) error {
	c, err := r.store.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer c.Close()
	return c.Raw(func(dc any) error {
		pc, ok := dc.(pgxConn)
		if !ok {
			return errNoListen
		}
		err := r.wait(ctx, pc.Conn(), b)
		return fmt.Errorf("%w: %w", driver.ErrBadConn, err)
	})
}

// wait LISTENs on conn and signals the relay at each notification.
func (r *Relay) wait(ctx context.Context, conn *pgx.Conn, b *backoff) error {
	if _, err := conn.Exec(ctx, "LISTEN "+quoteIdent(notifyChannel(r.store.table))); err != nil {
		return err
	}
	b.reset()
	r.signal() // rows committed while nobody listened
	for {
		if _, err := conn.WaitForNotification(ctx); err != nil {
			return err
		}
		r.signal()
	}
}

// quoteIdent quotes a channel name for LISTEN.
func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
