package outbox

import (
	"context"
	"database/sql"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemqtest"
)

func TestRelayRetiresRowRefusedByBrokerOnRabbitMQ(t *testing.T) {
	db := database(t)
	url := acemqtest.BrokerURL(t)
	refusals := map[string]func(conn *acemq.Conn, store *Store, tx *sql.Tx, q string) error{
		"undeclared exchange": func(conn *acemq.Conn, store *Store, tx *sql.Tx, _ string) error {
			return acemq.NewPublisher[order](Within(conn, store, tx), "no-such-exchange-"+acemq.NewUUID(), "k").Send(context.Background(), order{ID: "refused"})
		},
		"header over frame_max": func(conn *acemq.Conn, store *Store, tx *sql.Tx, q string) error {
			return acemq.NewPublisher[order](Within(conn, store, tx), "", q).Send(context.Background(), order{ID: "refused"},
				acemq.Header("x-big", strings.Repeat("h", 200<<10)))
		},
	}
	for name, refuse := range refusals {
		t.Run(name, func(t *testing.T) {
			logs := &syncBuffer{}
			store, _, conn, q := setup(t, db, url, acemq.WithLogger(slog.New(slog.NewTextHandler(logs, nil))))
			var y tally
			consume(t, conn, q, y.handle)
			inTx(t, db, true, func(tx *sql.Tx) {
				if err := refuse(conn, store, tx, q); err != nil {
					t.Fatal(err)
				}
			})
			write(t, db, conn, store, q, 0, 5)
			// The rows behind the refused one go in the first sweep, not
			// after it retires (a thousand refusals away).
			first := NewRelay(conn, store, MaxAttempts(1000), PollInterval(time.Hour))
			ctx, cancel := context.WithCancel(t.Context())
			done := make(chan error, 1)
			go func() { done <- first.Run(ctx) }()
			eventually(t, 10*time.Second, "the rows behind the refused one published", func() bool { return first.Stats().Published == 5 })
			cancel()
			<-done
			if l := logs.String(); strings.Contains(l, "outage") || !strings.Contains(l, "the broker refused a row") {
				t.Errorf("the refusal was not logged as one:\n%s", l)
			}
			// A relay that allows one refusal retires it.
			r := startRelay(t, conn, store, MaxAttempts(1), PollInterval(50*time.Millisecond))
			eventually(t, 10*time.Second, "the refused row retires", func() bool { return r.Stats().Retired == 1 })
			time.Sleep(200 * time.Millisecond)
			if distinct, all := y.counts(); distinct != 5 || all != 5 {
				t.Errorf("%d deliveries of %d distinct rows, want each of 5 rows once", all, distinct)
			}
			if l := logs.String(); !strings.Contains(l, "retired a row") {
				t.Errorf("the retirement was not logged:\n%s", l)
			}
		})
	}
}
