package rabbitmq

import (
	"context"
	"sync"

	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// DeclareQueue declares queue with spec's settings and arguments, on a
// channel of its own. Redeclaring with different settings fails with the
// broker's PRECONDITION_FAILED (an *amqp091.Error), which names the queue and
// the argument. The declaration is remembered and repeated after recovery.
// Errors are the broker's, unprefixed: acemq.Conn wraps them naming the
// queue.
func (t *Transport) DeclareQueue(ctx context.Context, name string, spec driver.QueueSpec) error {
	return t.declare(ctx, topoOp{kind: opQueue, name: name, queue: spec})
}

// DeclareExchange declares exchange name of spec.Kind, like DeclareQueue.
func (t *Transport) DeclareExchange(ctx context.Context, name string, spec driver.ExchangeSpec) error {
	return t.declare(ctx, topoOp{kind: opExchange, name: name, exchange: spec})
}

// Bind binds queue to exchange with key, like DeclareQueue.
func (t *Transport) Bind(ctx context.Context, queue, exchange, key string) error {
	return t.declare(ctx, topoOp{kind: opBind, name: queue, source: exchange, key: key})
}

func (t *Transport) declare(ctx context.Context, op topoOp) error {
	err := t.withChannel(ctx, op.apply)
	if err == nil {
		t.topo.remember(op)
	}
	return err
}

type opKind int

const (
	opQueue opKind = iota
	opExchange
	opBind
)

// topoOp is one declaration, kept to be repeated after recovery.
type topoOp struct {
	kind     opKind
	name     string // queue or exchange name; the queue of a binding
	queue    driver.QueueSpec
	exchange driver.ExchangeSpec
	source   string // the exchange of a binding
	key      string
}

func (op topoOp) apply(ch *amqp.Channel) error {
	switch op.kind {
	case opQueue:
		return op.applyQueue(ch)
	case opExchange:
		return op.applyExchange(ch)
	default:
		return op.applyBind(ch)
	}
}

func (op topoOp) applyQueue(ch *amqp.Channel) error {
	args, err := toTable(op.queue.Args)
	if err == nil {
		q := op.queue
		_, err = ch.QueueDeclare(op.name, q.Durable, q.AutoDelete, q.Exclusive, false, args)
	}
	return err
}

func (op topoOp) applyExchange(ch *amqp.Channel) error {
	args, err := toTable(op.exchange.Args)
	if err == nil {
		x := op.exchange
		err = ch.ExchangeDeclare(op.name, x.Kind, x.Durable, x.AutoDelete, false, false, args)
	}
	return err
}

func (op topoOp) applyBind(ch *amqp.Channel) error {
	return ch.QueueBind(op.name, op.key, op.source, false, nil)
}

// same reports whether op and other declare the same thing (so the later
// replaces the earlier).
func (op topoOp) same(other topoOp) bool {
	if op.kind != other.kind || op.name != other.name {
		return false
	}
	return op.kind != opBind || (op.source == other.source && op.key == other.key)
}

// topology is the ordered list of declarations a transport made. Safe for
// concurrent use.
type topology struct {
	mu   sync.Mutex
	list []topoOp
}

func (tp *topology) remember(op topoOp) {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	for i, old := range tp.list {
		if old.same(op) {
			tp.list[i] = op
			return
		}
	}
	tp.list = append(tp.list, op)
}

func (tp *topology) ops() []topoOp {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	return append([]topoOp(nil), tp.list...)
}
