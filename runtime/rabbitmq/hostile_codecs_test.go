package rabbitmq

import (
	"context"
	"encoding/binary"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/examples/bookstore/catalog"
	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
	"github.com/acemq/acemq-gen/runtime/avro"
	"github.com/acemq/acemq-gen/runtime/crypto"
	"github.com/acemq/acemq-gen/runtime/toml"
	"github.com/acemq/acemq-gen/runtime/xml"
	"github.com/acemq/acemq-gen/runtime/yaml"
)

// The hostile-input suite: every codec is fed nesting bombs, width bombs,
// truncations and duplicates through a real consumer; each must be parked
// with a reason naming what was wrong within a second and under 64 MB of
// allocation, while a consumer on another queue of the same connection keeps
// handling its messages.

// hostileOrder is shaped as a generated record: json, avro and xml tags, an
// optional pointer, and the contract's schema with defaults.
type hostileOrder struct {
	ID    string        `avro:"id" json:"id" xml:"id"`
	Items []string      `avro:"items" json:"items" xml:"items"`
	Next  *hostileOrder `avro:"next" json:"next" xml:"next"`
}

const hostileSchema = `{"type":"record","name":"HostileOrder","namespace":"acemq.test","fields":[` +
	`{"name":"id","type":"string"},{"name":"items","type":{"type":"array","items":"string"}},` +
	`{"name":"next","type":["null","HostileOrder"],"default":null}]}`

func (hostileOrder) AvroFullSchema() string { return hostileSchema }

// Each bomb must be refused within these bounds.
const (
	parkWithin  = raceSlowdown * time.Second
	parkAllocAt = 64 << 20
)

// bomb is one hostile body and what its park reason must name.
type bomb struct {
	name string
	body []byte
	want string
}

// hostileCodec is a codec under attack, its consumer's payload type, and the
// bombs fed to it.
type hostileCodec struct {
	name    string
	codec   acemq.Codec
	consume func(context.Context, *acemq.Conn, string, acemq.Codec) (*acemq.Consumer, error)
	bombs   []bomb
}

func consumeAs[T any](ctx context.Context, conn *acemq.Conn, q string, c acemq.Codec) (*acemq.Consumer, error) {
	return acemq.Consume(ctx, conn, q, func(context.Context, acemq.Message[T]) acemq.Ack { return acemq.Accept() }, acemq.ConsumeWith(c))
}

func TestHostileBodiesAreParkedWithinBounds(t *testing.T) {
	runHostileSuite(t, brokerURL(t))
}

func TestHostileBodiesAreParkedWithinBoundsInMemory(t *testing.T) {
	runHostileSuite(t, "memory://hostile-"+randomHex())
}

func runHostileSuite(t *testing.T, url string) {
	// Oversized bodies of 3 MiB over a limit of 2.5 MiB: a body's trip through
	// the broker (published, delivered, republished to .parked, pulled)
	// allocates some 15 times its size, whatever the codec does.
	acemq.SetDecodeLimits(acemq.DecodeLimits{MaxBody: 5 << 19}) // 2.5 MiB
	t.Cleanup(func() { acemq.SetDecodeLimits(acemq.DecodeLimits{}) })
	ctx := ctxT(t)
	conn, err := acemq.Connect(ctx, url, testDelay)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	cleanURL := url
	if strings.HasPrefix(url, "memory://") {
		cleanURL = "" // the memory broker goes with its connection
	}
	clean := newCleanerAt(t, cleanURL)
	canary := startCanary(t, ctx, conn, clean)
	for _, hc := range hostileCodecs(t) {
		t.Run(hc.name, func(t *testing.T) {
			q := declareHostileQueue(t, ctx, conn, clean, hc.name)
			consumer, err := hc.consume(ctx, conn, q, hc.codec)
			if err != nil {
				t.Fatal(err)
			}
			defer consumer.Close()
			for _, b := range hc.bombs {
				t.Run(b.name, func(t *testing.T) { parkedWithinBounds(t, ctx, conn, q, hc.codec.ContentType(), b) })
			}
		})
	}
	canary.stop(t)
}

// declareHostileQueue declares a queue with its set-aside queues.
func declareHostileQueue(t *testing.T, ctx context.Context, conn *acemq.Conn, clean *cleaner, name string) string {
	t.Helper()
	q := clean.queue(unique("hostile-" + name))
	clean.queue(acemq.DeadLetterQueue(q))
	clean.queue(acemq.ParkedQueue(q))
	if err := acemq.NewTopology().Queue(q).DeadLetters(q).Apply(ctx, conn); err != nil {
		t.Fatal(err)
	}
	return q
}

// parkedWithinBounds publishes b's body to q and waits for it on the parked
// queue, checking the reason, the time and what the process allocated.
func parkedWithinBounds(t *testing.T, ctx context.Context, conn *acemq.Conn, q, contentType string, b bomb) {
	env, err := acemq.NewEnvelope("hostile")
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	out := driver.Outbound{Body: b.body, ContentType: contentType, MessageID: env.ID, Headers: env.ToWire(), Persistent: true}
	if _, err := conn.PublishRaw(ctx, "", q, out); err != nil {
		t.Fatal(err)
	}
	start := time.Now() // confirmed: from here it is the consumer's
	d := pullWithin(t, ctx, conn, acemq.ParkedQueue(q), 10*time.Second)
	took := time.Since(start)
	runtime.ReadMemStats(&after)
	reason := acemq.EnvelopeFromWire(d.Headers, d.RoutingKey, d.MessageID).Error
	if d.MessageID != env.ID || !strings.HasPrefix(reason, "could not be decoded: ") || !strings.Contains(reason, b.want) {
		t.Errorf("parked %s with reason %q, want %s parked as could not be decoded: … %s", d.MessageID, reason, env.ID, b.want)
	}
	if len(reason) > 2048 {
		t.Errorf("the reason is %d bytes long", len(reason))
	}
	if took > parkWithin {
		t.Errorf("a %d-byte body took %v to be parked, want under %v", len(b.body), took, parkWithin)
	}
	t.Logf("%d bytes parked in %v, %d KB allocated: %.120s", len(b.body), took, (after.TotalAlloc-before.TotalAlloc)>>10, reason)
	if n := after.TotalAlloc - before.TotalAlloc; n > parkAllocAt {
		t.Errorf("parking a %d-byte body allocated %d MB, want under %d MB", len(b.body), n>>20, parkAllocAt>>20)
	}
}

// pullWithin takes the next message of queue, failing t after wait.
func pullWithin(t *testing.T, ctx context.Context, conn *acemq.Conn, queue string, wait time.Duration) driver.Delivery {
	t.Helper()
	deadline := time.Now().Add(wait)
	for time.Now().Before(deadline) {
		d, ok, err := conn.Pull(ctx, queue)
		if err != nil {
			t.Fatalf("Pull(%s): %v", queue, err)
		}
		if ok {
			return d
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatalf("nothing reached %s within %v", queue, wait)
	return driver.Delivery{}
}

// canary is a consumer on another queue of the same connection, fed a
// message every 20 ms while the bombs go off.
type canary struct {
	sent, handled atomic.Int64
	done          chan struct{}
	finished      chan struct{}
}

func startCanary(t *testing.T, ctx context.Context, conn *acemq.Conn, clean *cleaner) *canary {
	t.Helper()
	q := declareHostileQueue(t, ctx, conn, clean, "canary")
	c := &canary{done: make(chan struct{}), finished: make(chan struct{})}
	consumer, err := acemq.Consume(ctx, conn, q, func(context.Context, acemq.Message[hostileOrder]) acemq.Ack {
		c.handled.Add(1)
		return acemq.Accept()
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = consumer.Close() })
	pub := acemq.NewPublisher[hostileOrder](conn, "", q)
	go c.feed(ctx, pub)
	return c
}

func (c *canary) feed(ctx context.Context, pub *acemq.Publisher[hostileOrder]) {
	defer close(c.finished)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-c.done:
			return
		case <-tick.C:
			if pub.Send(ctx, hostileOrder{ID: "canary", Items: []string{}}) == nil {
				c.sent.Add(1)
			}
		}
	}
}

// stop ends the feed and checks every canary message was handled.
func (c *canary) stop(t *testing.T) {
	close(c.done)
	<-c.finished
	deadline := time.Now().Add(5 * time.Second)
	for c.handled.Load() < c.sent.Load() && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if sent, handled := c.sent.Load(), c.handled.Load(); sent == 0 || handled != sent {
		t.Errorf("the canary queue handled %d of %d messages sent while the bombs went off", handled, sent)
	}
}

func hostileCodecs(t *testing.T) []hostileCodec {
	reg := avro.NewMemoryRegistry()
	registered, err := avro.Registered(reg, "hostile-"+randomHex(), hostileSchema)
	if err != nil {
		t.Fatal(err)
	}
	id, err := registered.SchemaID(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	fixed, err := avro.Of(hostileSchema)
	if err != nil {
		t.Fatal(err)
	}
	key, err := crypto.NewKey("hostile")
	if err != nil {
		t.Fatal(err)
	}
	ring, err := crypto.NewKeyring(key)
	if err != nil {
		t.Fatal(err)
	}
	return []hostileCodec{
		{"json", acemq.JSONCodec{}, consumeAs[hostileOrder], jsonBombs()},
		{"json-generated", acemq.JSONCodec{}, consumeAs[catalog.BookAdded], generatedJSONBombs()},
		{"yaml", yaml.Codec{}, consumeAs[hostileOrder], yamlBombs()},
		{"toml", toml.Codec{}, consumeAs[hostileOrder], tomlBombs()},
		{"xml", xml.Codec{}, consumeAs[hostileOrder], xmlBombs()},
		{"avro", fixed, consumeAs[hostileOrder], avroBombs(t, fixed)},
		{"avro-registered", registered, consumeAs[hostileOrder], registeredBombs(t, fixed, id)},
		{"encrypted", crypto.Wrap(acemq.JSONCodec{}, ring), consumeAs[hostileOrder], encryptedBombs(t, ring)},
		{"text", acemq.StringCodec{}, consumeAs[string], textBombs()},
		{"bytes", acemq.BytesCodec{}, consumeAs[[]byte], bytesBombs()},
	}
}

func rep(s string, n int) string { return strings.Repeat(s, n) }

func jsonBombs() []bomb {
	return []bomb{
		{"nesting", []byte(rep("[", 100_000) + rep("]", 100_000)), "json: nesting deeper than 100"},
		{"nested-objects", []byte(rep(`{"next":`, 50_000) + "null" + rep("}", 50_000)), "json: nesting deeper than 100"},
		{"width", []byte(`{"id":"a","items":[` + rep(`0,`, 1_100_000) + `0]}`), "json: more than 1000000 elements"},
		{"truncation", []byte(`{"id":"a","items":["x"`), "unexpected end of JSON input"},
		{"duplicates", []byte(`{"id":"a","id":"b","items":[]}`), `field "id" of rabbitmq.hostileOrder is given twice`},
		{"null", []byte(`null`), "the message is null where a rabbitmq.hostileOrder belongs"},
		{"empty-object", []byte(`{}`), `requires field "id"`},
	}
}

func yamlBombs() []bomb {
	var laughs strings.Builder
	laughs.WriteString("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i < 10; i++ {
		fmt.Fprintf(&laughs, "a%d: &a%d [%s*a%d]\n", i, i, rep(fmt.Sprintf("*a%d, ", i-1), 9), i-1)
	}
	return []bomb{
		{"nesting", []byte(rep("[", 100_000) + rep("]", 100_000)), "yaml: nesting deeper than 100"},
		{"block-nesting", []byte(rep("- ", 100_000) + "x\n"), "yaml: nesting deeper than 100"},
		{"width", []byte("[" + rep("x,", 60_000) + "x]"), "yaml: more than 50000 elements"},
		{"aliases", []byte(laughs.String()), "yaml: more than 50000 elements"},
		{"truncation", []byte("id: a\nitems: [x, y"), "not YAML that reads as"},
		{"duplicates", []byte("id: a\nid: b\nitems: []\n"), "already defined"},
		{"two-documents", []byte("id: a\nitems: []\n---\nid: b\nitems: []\n"), "more than one YAML document"},
	}
}

func tomlBombs() []bomb {
	return []bomb{
		{"nesting", []byte("id = \"a\"\nx = " + rep("{a = ", 20_000) + "1" + rep("}", 20_000)), "toml: nesting deeper than 100"},
		{"dotted-keys", []byte(rep("k.", 20_000) + "v = 1\n"), "toml: nesting deeper than 100"},
		{"width", []byte("id = \"a\"\nitems = [" + rep(`0,`, 1_100_000) + "0]\n"), "toml: more than 1000000 elements"},
		{"truncation", []byte("id = \"a"), "not TOML that reads as"},
		{"duplicates", []byte("id = \"a\"\nid = \"b\"\n"), "not TOML that reads as"},
	}
}

func xmlBombs() []bomb {
	return []bomb{
		{"nesting", []byte(rep("<a>", 50_000) + rep("</a>", 50_000)), "xml: nesting deeper than 100"},
		{"width", []byte("<o>" + rep("<x/>", 200_000) + "</o>"), "xml: more than 100000 elements"},
		{"attributes", []byte("<o " + rep(`a="1" `, 200_000) + "/>"), "xml: more than 100000 elements"},
		{"truncation", []byte("<o><id>a</id>"), "not XML that reads as"},
		{"duplicates", []byte("<o><id>a</id><id>b</id><items>x</items></o>"), "<id> appears 2 times"},
		{"text-for-record", []byte("<o><id>a</id><items>x</items><next>oops</next></o>"), "holds text where a"},
	}
}

// zigzag appends n as Avro's zigzag varint.
func zigzag(b []byte, n int64) []byte { return binary.AppendVarint(b, n) }

func avroBombs(t *testing.T, c *avro.Codec) []bomb {
	deep := []byte{}
	for range 1000 {
		deep = append(deep, 0, 0, 2) // id "", no items, next: the record again
	}
	deep = append(deep, 0, 0, 0)
	whole, err := c.Encode(hostileOrder{ID: "order-1", Items: []string{"a", "b", "c"}})
	if err != nil {
		t.Fatal(err)
	}
	return []bomb{
		{"nesting", deep, "nests deeper than 512"},
		{"width", zigzag([]byte{0}, 1<<40), "items in all"},
		{"long-string", zigzag(nil, 12<<20), "runs past the end of the body"},
		{"truncation", whole[:len(whole)/2], "not Avro that reads as"},
		{"trailing-bytes", append(append([]byte{}, whole...), whole...), "bytes are left over after the record"},
	}
}

// confluentFrame puts Confluent's framing (zero, id) before body.
func confluentFrame(id int, body []byte) []byte {
	return append(binary.BigEndian.AppendUint32([]byte{0}, uint32(id)), body...)
}

func registeredBombs(t *testing.T, fixed *avro.Codec, id int) []bomb {
	bombs := avroBombs(t, fixed)
	for i := range bombs {
		bombs[i].body = confluentFrame(id, bombs[i].body)
	}
	return append(bombs,
		bomb{"unknown-id", confluentFrame(id+1_000_003, []byte{0, 0, 0}), "which the registry does not hold"},
		bomb{"no-frame", []byte{1, 2}, "carries no schema identifier"},
	)
}

func encryptedBombs(t *testing.T, ring *crypto.Keyring) []bomb {
	seal := func(plain string) []byte {
		body, err := crypto.Wrap(acemq.BytesCodec{}, ring).Encode([]byte(plain))
		if err != nil {
			t.Fatal(err)
		}
		return body
	}
	whole := seal(`{"id":"a","items":[]}`)
	return []bomb{
		{"nesting", seal(rep("[", 100_000) + rep("]", 100_000)), "json: nesting deeper than 100"},
		{"width", seal(`{"id":"a","items":[` + rep(`0,`, 1_100_000) + `0]}`), "json: more than 1000000 elements"},
		{"truncation", whole[:len(whole)-3], "did not decrypt"},
		{"garbage", []byte{0xAE, 0x01, 0x40, 'k'}, "not"},
		{"oversized", append([]byte{0xAE}, make([]byte, 3<<20)...), "encrypted: body larger than"},
	}
}

func textBombs() []bomb {
	return []bomb{
		{"truncated-rune", []byte("caf\xc3"), "not valid UTF-8"},
		{"oversized", []byte(rep("x", 3<<20)), "text: body larger than"},
	}
}

func bytesBombs() []bomb {
	return []bomb{{"oversized", make([]byte, 3<<20), "bytes: body larger than"}}
}
