package main

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"math"
	"strings"
	"sync"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/acemq/acemq-gen/bench/internal/payload"
)

// env is what every trial shares: the broker and the message-count scale.
type env struct {
	url   string
	scale float64
	pgURL string // PostgreSQL, for the outbox scenarios

	dbOnce sync.Once
	db     *sql.DB
	dbErr  error
}

// count scales a scenario's message count.
func (e *env) count(n int) int { return max(1, int(math.Round(float64(n)*e.scale))) }

// scenario is one row group of the table: contenders doing the same work.
type scenario struct {
	name       string
	what       string
	messages   int
	contenders []contender // the first is the reference (raw amqp091-go)
}

// contender is one way of doing a scenario's work. against names the
// contender its ratio is taken to (the scenario's first when empty, none
// for the first itself).
type contender struct {
	name    string
	against string
	setup   func(ctx context.Context, e *env, n int) (trial, error)
}

// trial is one set-up repetition: run is timed; verify (optional) checks
// its outcome after the clock stopped; teardown is not timed either.
// latencies (optional) returns per-message latencies measured by run.
type trial struct {
	run       func(ctx context.Context) error
	verify    func(ctx context.Context) error
	teardown  func()
	latencies func() []time.Duration
}

// window is the sliding window of unconfirmed publishes and the batch size.
const window = 1000

func allScenarios() []scenario {
	raw := func(name string, setup func(context.Context, *env, int) (trial, error)) contender {
		return contender{name: name, setup: setup}
	}
	vs := func(name, against string, setup func(context.Context, *env, int) (trial, error)) contender {
		return contender{name: name, against: against, setup: setup}
	}
	ours := func(name string, setup func(context.Context, *env, int) (trial, error)) contender {
		return contender{name: name, against: "raw", setup: setup}
	}
	return []scenario{
		{"stream", "a sliding window of 1,000 unconfirmed publishes", 10000, []contender{
			raw("raw", rawStream), ours("acemq SendAsync", acemqStream)}},
		{"batch", "1,000 published, then all 1,000 confirms awaited", 10000, []contender{
			raw("raw", rawBatch), ours("acemq SendAll", acemqBatch)}},
		{"send16", "16 goroutines, each waiting for its own confirm", 4000, []contender{
			raw("raw", rawSendN(16)), ours("acemq 16×Send", acemqSendN(16))}},
		{"send1", "one goroutine, waiting for each confirm", 500, []contender{
			raw("raw", rawSendN(1)), ours("acemq Send", acemqSendN(1))}},
		{"consume", "manual acks, prefetch 1,000, JSON decoded", 10000, []contender{
			raw("raw", rawConsume), ours("acemq Consume 1 worker", acemqConsume(1)), ours("acemq Consume 4 workers", acemqConsume(4))}},
		{"rpc1", "request/reply, 1 caller: confirmed request, confirmed reply, direct reply-to", 500, []contender{
			raw("raw", rawRPC(1)), ours("acemq RPC", acemqRPC(1))}},
		{"rpc32", "request/reply, 32 concurrent callers", 2000, []contender{
			raw("raw", rawRPC(32)), ours("acemq RPC", acemqRPC(32))}},
		{"wm-publish", "Watermill's publisher with confirms, 16 goroutines", 4000, []contender{
			raw("raw", rawSendN(16)), ours("watermill", watermillPublish(16)),
			vs("acemq 16×Send", "watermill", acemqSendN(16)), vs("acemq SendAsync", "watermill", acemqStream)}},
		{"wm-consume", "Watermill's subscriber at its durable defaults (prefetch 1)", 3000, []contender{
			raw("raw", rawConsume), ours("watermill", watermillConsume),
			vs("acemq Consume 1 worker", "watermill", acemqConsume(1)), vs("acemq Consume 4 workers", "watermill", acemqConsume(4))}},
		{"outbox", "relaying committed outbox rows (PostgreSQL) until each is confirmed and deleted", 5000, []contender{
			raw("raw", rawRelay), ours("acemq outbox.Relay", outboxRelay), ours("watermill Forwarder", watermillForwarder)}},
		{"stream-read", "reading a stream from first, JSON decoded, the offset upserted in PostgreSQL every 1,000 records", 20000, []contender{
			raw("raw", rawStreamRead), ours("acemq StreamSpec.Read", acemqStreamRead),
			ours("acemq Read + outbox.Checkpointed (every record)", acemqCheckpointedRead)}},
		{"outbox-latency", "commit to handler, one row per transaction at 200/s through outbox.Within", 1000, []contender{
			raw("acemq outbox.Relay", outboxLatency(200))}},
	}
}

// needsDatabase reports whether a scenario needs PostgreSQL.
func needsDatabase(s scenario) bool {
	return strings.HasPrefix(s.name, "outbox") || s.name == "stream-read"
}

// event is the payload every contender sends: about 256 bytes of JSON. It
// is generated from contracts/payload.acemq.yaml, as a service's payloads
// are: the acemq contenders encode and decode it with its generated codec,
// the raw and Watermill ones with encoding/json, which writes the same bytes.
type event = payload.Event

var note = strings.Repeat("x", 236)

func newEvent(i int) event { return event{ID: int64(i), Note: note} }

// queueName is a fresh queue name.
func queueName(prefix string) string {
	x := make([]byte, 6)
	_, _ = rand.Read(x)
	return "sbs-" + prefix + "-" + hex.EncodeToString(x)
}

// quorumArgs declare a quorum queue, what every scenario uses.
var quorumArgs = amqp.Table{"x-queue-type": "quorum"}

// admin declares and deletes queues on a connection of its own.
func declareQuorum(url, q string) error {
	return withChannel(url, func(ch *amqp.Channel) error {
		_, err := ch.QueueDeclare(q, true, false, false, false, quorumArgs)
		return err
	})
}

// deleteQueues deletes queues, ignoring errors.
func deleteQueues(url string, qs ...string) {
	_ = withChannel(url, func(ch *amqp.Channel) error {
		for _, q := range qs {
			if _, err := ch.QueueDelete(q, false, false, false); err != nil {
				return err
			}
		}
		return nil
	})
}

func withChannel(url string, f func(*amqp.Channel) error) error {
	conn, err := amqp.Dial(url)
	if err != nil {
		return err
	}
	defer conn.Close()
	ch, err := conn.Channel()
	if err != nil {
		return err
	}
	return f(ch)
}
