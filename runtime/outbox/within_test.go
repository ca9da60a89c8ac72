package outbox

import (
	"context"
	"database/sql"
	"errors"
	"maps"
	"math"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
	"github.com/acemq/acemq-gen/runtime/acemqimpl"
	"github.com/acemq/acemq-gen/runtime/avro"
	"github.com/acemq/acemq-gen/runtime/crypto"
)

func TestMigrateIsIdempotentAndSchemaIsWhatItRuns(t *testing.T) {
	db := database(t)
	store, inbox := freshStore(t, db)
	for range 2 {
		if err := store.Migrate(t.Context()); err != nil {
			t.Fatalf("second Migrate: %v", err)
		}
		if err := inbox.Migrate(t.Context()); err != nil {
			t.Fatalf("second inbox Migrate: %v", err)
		}
	}
	if _, err := db.Exec(store.Schema()); err != nil {
		t.Fatalf("running Schema() on a migrated database: %v", err)
	}
	if !strings.Contains(store.Schema(), "CREATE TABLE IF NOT EXISTS \""+store.Name()+"\"") {
		t.Errorf("Schema() does not create %s:\n%s", store.Name(), store.Schema())
	}
	if NewStore(db).Name() != "acemq_outbox" || NewInbox(db).Name() != "acemq_inbox" {
		t.Errorf("default tables = %s, %s", NewStore(db).Name(), NewInbox(db).Name())
	}
}

func TestATableNameThatIsNotAnIdentifierIsRefused(t *testing.T) {
	s := NewStore(nil, Table(`x"; DROP TABLE users; --`))
	if err := s.Migrate(t.Context()); err == nil || !strings.Contains(err.Error(), "is not a table name") {
		t.Fatalf("Migrate = %v", err)
	}
}

func TestRolledBackTransactionPublishesNothing(t *testing.T) {
	db := database(t)
	for name, url := range brokers(t) {
		t.Run(name, func(t *testing.T) {
			store, _, conn, q := setup(t, db, url)
			inTx(t, db, false, func(tx *sql.Tx) {
				if err := acemq.NewPublisher[order](Within(conn, store, tx), "", q).Send(t.Context(), order{ID: "rolled-back"}); err != nil {
					t.Fatal(err)
				}
			})
			inTx(t, db, true, func(tx *sql.Tx) {
				if err := acemq.NewPublisher[order](Within(conn, store, tx), "", q).Send(t.Context(), order{ID: "committed"}); err != nil {
					t.Fatal(err)
				}
			})
			c := collectOrders(t, conn, q)
			startRelay(t, conn, store, PollInterval(20*time.Millisecond))
			got := c.waitFor(t, 1, 10*time.Second)
			eventually(t, 5*time.Second, "the committed row is deleted", func() bool { return rowCount(t, db, store) == 0 })
			if got[0].Payload.ID != "committed" || c.count() != 1 {
				t.Fatalf("delivered %v, want only the committed order", got)
			}
		})
	}
}

// rowCount counts every row of the outbox table.
func rowCount(t testing.TB, db *sql.DB, store *Store) int {
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM ` + store.table.quoted).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

const orderSchema = `{"type":"record","name":"Order","fields":[{"name":"id","type":"string"},{"name":"total","type":"int"}]}`

// framedConn is a connection whose codec frames (schema registry) and
// encrypts (crypto keyring), both found through the connection, with a
// publish interceptor that adds a header and counts its calls.
func framedConn(t *testing.T, url string, calls *atomic.Int64) (*acemq.Conn, acemq.Codec) {
	key, err := crypto.NewKey("k1")
	if err != nil {
		t.Fatal(err)
	}
	kr, err := crypto.NewKeyring(key)
	if err != nil {
		t.Fatal(err)
	}
	stamp := func(_ context.Context, pc *acemq.PublishContext) error {
		calls.Add(1)
		pc.SetHeader("x-stamped", "yes")
		return nil
	}
	conn := broker(t, url, avro.WithRegistry(avro.NewMemoryRegistry()), crypto.WithKeyring(kr),
		acemq.WithPublishInterceptor(stamp))
	return conn, codecOn(t, conn)
}

// codecOn builds, from what conn carries, the codec generated code would.
func codecOn(t *testing.T, conn *acemq.Conn) acemq.Codec {
	inner, err := avro.RegisteredOn(conn, "orders-value", orderSchema)
	if err != nil {
		t.Fatal(err)
	}
	kr, err := crypto.KeyringFrom(conn)
	if err != nil {
		t.Fatal(err)
	}
	return crypto.Wrap(inner, kr)
}

func TestCommittedTransactionPublishesWhatSendOnConnWould(t *testing.T) {
	db := database(t)
	for name, url := range brokers(t) {
		t.Run(name, func(t *testing.T) {
			store, _ := freshStore(t, db)
			var calls atomic.Int64
			conn, codec := framedConn(t, url, &calls)
			q := queue(t, conn)
			env := acemq.Envelope{ID: acemq.NewUUID(), FirstSeen: time.UnixMilli(1700000000123), Headers: map[string]any{"x-tenant": "acme", "x-n": int64(7)}}
			payload := order{ID: "o-1", Total: 42}
			direct := acemq.NewPublisher(conn, "", q, acemq.PublishWith[order](codec), acemqimpl.PublishHeaderRules[order](acemq.HeaderRule{Name: "x-tenant", Required: true}))
			if err := direct.SendEnvelope(t.Context(), payload, env); err != nil {
				t.Fatal(err)
			}
			inTx(t, db, true, func(tx *sql.Tx) {
				via := Within(conn, store, tx)
				p := acemq.NewPublisher(via, "", q, acemq.PublishWith[order](codecOn(t, via)), acemqimpl.PublishHeaderRules[order](acemq.HeaderRule{Name: "x-tenant", Required: true}))
				if err := p.SendEnvelope(t.Context(), payload, env); err != nil {
					t.Fatal(err)
				}
			})
			if calls.Load() != 2 {
				t.Fatalf("the publish interceptor ran %d times, want 2 (once per Send, at write time)", calls.Load())
			}
			startRelay(t, conn, store, PollInterval(20*time.Millisecond))
			var got []driver.Delivery
			eventually(t, 10*time.Second, "both messages arrive", func() bool {
				d, ok, err := conn.Pull(t.Context(), q)
				if err != nil {
					t.Fatal(err)
				}
				if ok {
					got = append(got, d)
				}
				return len(got) == 2
			})
			a, b := got[0], got[1]
			if calls.Load() != 2 {
				t.Errorf("the relay ran the publish interceptor: %d calls", calls.Load())
			}
			if a.MessageID != b.MessageID || a.ContentType != b.ContentType || a.RoutingKey != b.RoutingKey ||
				a.ReplyTo != b.ReplyTo || a.CorrelationID != b.CorrelationID || a.Expiration != b.Expiration {
				t.Errorf("properties differ:\n direct %+v\n outbox %+v", props(a), props(b))
			}
			if !reflect.DeepEqual(a.Headers, b.Headers) {
				t.Errorf("headers differ:\n direct %#v\n outbox %#v", a.Headers, b.Headers)
			}
			if a.Headers["x-stamped"] != "yes" {
				t.Errorf("headers lack the interceptor's x-stamped: %v", a.Headers)
			}
			var back order
			if err := codec.Decode(b.Body, &back); err != nil || back != payload {
				t.Errorf("outbox body decodes to %+v, %v", back, err)
			}
			if !strings.HasPrefix(b.ContentType, crypto.ContentType) {
				t.Errorf("content type %q, want the crypto codec's", b.ContentType)
			}
		})
	}
}

func props(d driver.Delivery) map[string]string {
	return map[string]string{"id": d.MessageID, "ct": d.ContentType, "key": d.RoutingKey, "reply": d.ReplyTo, "corr": d.CorrelationID}
}

func TestDeclaringOrConsumingThroughWithinSaysWhy(t *testing.T) {
	conn := broker(t, "")
	via := Within(conn, NewStore(nil), nil)
	if err := via.DeclareQueue(t.Context(), "q"); !errors.Is(err, ErrNotABroker) {
		t.Errorf("DeclareQueue = %v, want ErrNotABroker", err)
	}
	_, err := acemq.Consume(t.Context(), via, "q", func(context.Context, acemq.Message[order]) acemq.Ack { return acemq.Accept() })
	if !errors.Is(err, ErrNotABroker) || !strings.Contains(err.Error(), "outbox.Within") {
		t.Errorf("Consume = %v, want ErrNotABroker", err)
	}
	if err := acemq.NewPublisher[order](via, "", "q").Send(t.Context(), order{}); err == nil || !strings.Contains(err.Error(), "nil transaction") {
		t.Errorf("Send with a nil transaction = %v", err)
	}
	if err := acemq.NewPublisher[order](Within(nil, nil, nil), "", "q").Send(t.Context(), order{}); err == nil || !strings.Contains(err.Error(), "nil connection") {
		t.Errorf("Send through Within(nil, ...) = %v", err)
	}
}

func TestWithinStoresTheWireMessageInTheTransaction(t *testing.T) {
	db := database(t)
	store, _ := freshStore(t, db)
	conn := broker(t, "")
	inTx(t, db, true, func(tx *sql.Tx) {
		p := acemq.NewPublisher[order](Within(conn, store, tx), "orders", "placed", acemq.Mandatory[order]())
		if err := p.Send(t.Context(), order{ID: "o"}, acemq.Header("x-tenant", "acme"), acemq.ReplyTo("answers")); err != nil {
			t.Fatal(err)
		}
	})
	var ex, key, ct, reply, id string
	var persistent, mandatory bool
	var headers []byte
	err := db.QueryRow(`SELECT exchange, routing_key, content_type, reply_to, message_id, persistent, mandatory, headers FROM `+store.table.quoted).
		Scan(&ex, &key, &ct, &reply, &id, &persistent, &mandatory, &headers)
	if err != nil {
		t.Fatal(err)
	}
	h, err := decodeHeaders(headers)
	if err != nil {
		t.Fatal(err)
	}
	if ex != "orders" || key != "placed" || ct != "application/json" || reply != "answers" || !persistent || !mandatory ||
		h["x-tenant"] != "acme" || h[semconv.HeaderID] != id || h[semconv.HeaderType] != "placed" {
		t.Errorf("row = %s %s %s %s %s %v %v %v", ex, key, ct, reply, id, persistent, mandatory, h)
	}
}

func TestHeaderValuesKeepTheirTypesThroughTheTable(t *testing.T) {
	in := map[string]any{
		"s": "x", "b": []byte{0, 1, 255}, "t": true, "i": 1, "i8": int8(-8), "i16": int16(16), "i32": int32(-32),
		"i64": int64(1 << 62), "u8": uint8(8), "u16": uint16(16), "u32": uint32(32), "u64": uint64(1<<64 - 1),
		"f32": float32(1.5), "f64": 0.1, "nan": "NaN-as-string", "inf": math.Inf(-1),
		"time": time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC), "nil": nil,
		"arr": []any{int64(1), "two", []any{false}}, "tbl": map[string]any{"k": int32(1), "n": map[string]any{"d": 2.5}},
	}
	raw, err := encodeHeaders(in)
	if err != nil {
		t.Fatal(err)
	}
	out, err := decodeHeaders(raw)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(in, out) {
		for k := range maps.Keys(in) {
			if !reflect.DeepEqual(in[k], out[k]) {
				t.Errorf("%s: %#v came back as %#v", k, in[k], out[k])
			}
		}
	}
	if _, err := encodeHeaders(map[string]any{"c": make(chan int)}); err == nil || !strings.Contains(err.Error(), `header "c"`) {
		t.Errorf("a channel header = %v", err)
	}
}

func TestNewStoreRefusesTableNameTooLong(t *testing.T) {
	db := database(t)
	longest := "ob_" + strings.Repeat("x", MaxIdentifierLength-len(outboxLongestSuffix)-3)
	cases := map[string]string{
		"63 characters":                   "ob_" + strings.Repeat("a", 60),
		"64 characters":                   "ob_" + strings.Repeat("b", 61),
		"one over the longest":            longest + "y",
		"schema and table over 63 in all": strings.Repeat("s", 20) + "." + "ob_" + strings.Repeat("c", 45),
	}
	for name, table := range cases {
		t.Run(name, func(t *testing.T) {
			store := NewStore(db, Table(table))
			err := store.Migrate(t.Context())
			if !errors.Is(err, ErrInvalidTableName) || !strings.Contains(err.Error(), "too long") || !strings.Contains(err.Error(), "at most") {
				t.Fatalf("Migrate = %v, want ErrInvalidTableName naming the limit", err)
			}
			var exists bool
			if err := db.QueryRow(`SELECT to_regclass($1) IS NOT NULL`, `"`+table+`"`).Scan(&exists); err == nil && exists {
				t.Errorf("Migrate created %s", table)
			}
			inTx(t, db, false, func(tx *sql.Tx) {
				err := acemq.NewPublisher[order](Within(broker(t, ""), store, tx), "", "q").Send(t.Context(), order{ID: "x"})
				if !errors.Is(err, ErrInvalidTableName) {
					t.Errorf("a publish through Within = %v, want ErrInvalidTableName", err)
				}
			})
			if err := NewRelay(broker(t, ""), store).Run(t.Context()); !errors.Is(err, ErrInvalidTableName) {
				t.Errorf("Relay.Run = %v, want ErrInvalidTableName", err)
			}
		})
	}
	t.Run("the longest accepted name works end to end", func(t *testing.T) {
		store := NewStore(db, Table(longest))
		t.Cleanup(func() {
			db.Exec(`DROP TABLE IF EXISTS ` + store.table.quoted)
			db.Exec(`DROP SEQUENCE IF EXISTS ` + store.table.derived("commit_seq"))
			db.Exec(`DROP FUNCTION IF EXISTS ` + store.table.derived("commit_order") + `()`)
		})
		if err := store.Migrate(t.Context()); err != nil {
			t.Fatal(err)
		}
		conn := broker(t, "")
		q := queue(t, conn)
		c := collectOrders(t, conn, q)
		write(t, db, conn, store, q, 0, 2)
		startRelay(t, conn, store, PollInterval(20*time.Millisecond))
		c.waitFor(t, 2, 10*time.Second)
	})
	if in := NewInbox(db, Table("ib_"+strings.Repeat("d", 50))); !errors.Is(in.Migrate(t.Context()), ErrInvalidTableName) {
		t.Errorf("an inbox name too long for its index was accepted")
	}
}
