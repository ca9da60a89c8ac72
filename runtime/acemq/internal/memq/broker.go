package memq

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"
)

// Broker is one in-process broker. One mutex guards all of its state; its
// methods are safe for concurrent use.
type Broker struct {
	name      string
	mu        sync.Mutex
	exchanges map[string]*memExchange
	queues    map[string]*memQueue
	nextTag   uint64
}

// memExchange is a declared exchange and its bindings.
type memExchange struct {
	name     string
	spec     ExchangeSpec
	bindings []memBinding
}

// memBinding binds a queue to an exchange with a routing key (or pattern).
type memBinding struct {
	queue, key string
}

// amqExchanges are the exchanges every RabbitMQ virtual host starts with,
// by kind; they are durable.
var amqExchanges = map[string]string{
	"amq.direct": "direct", "amq.topic": "topic", "amq.fanout": "fanout",
	"amq.headers": "headers", "amq.match": "headers",
}

// reservedPrefix starts the names only the broker may create.
const reservedPrefix = "amq."

// New returns an empty broker called name (the name is in its errors), with
// the amq.* exchanges every RabbitMQ virtual host starts with.
func New(name string) *Broker {
	b := &Broker{name: name, exchanges: map[string]*memExchange{}, queues: map[string]*memQueue{}}
	for x, kind := range amqExchanges {
		b.exchanges[x] = &memExchange{name: x, spec: ExchangeSpec{Kind: kind, Durable: true}}
	}
	return b
}

// errorf renders a broker error in RabbitMQ's words, naming the broker.
func (b *Broker) errorf(format string, args ...any) error {
	return fmt.Errorf("memory broker %q: "+format, append([]any{b.name}, args...)...)
}

// declareQueue creates name for conn or checks that it matches spec. An
// exclusive queue belongs to conn: other connections are locked out of it.
func (b *Broker) declareQueue(conn *Conn, name string, spec QueueSpec) error {
	if name == "" {
		return b.errorf("a queue needs a name")
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if q, ok := b.queues[name]; ok {
		return b.redeclare(conn, q, spec)
	}
	return b.createQueue(conn, name, spec)
}

// createQueue adds a new queue, owned by conn when exclusive. Call with b.mu held.
func (b *Broker) createQueue(conn *Conn, name string, spec QueueSpec) error {
	if strings.HasPrefix(name, reservedPrefix) {
		return b.errorf("403 ACCESS_REFUSED - queue name '%s' contains reserved prefix 'amq.*'", name)
	}
	q, err := newMemQueue(b, name, spec)
	if err != nil {
		return err
	}
	if spec.Exclusive {
		q.owner = conn
	}
	b.queues[name] = q
	q.touch()
	return nil
}

// redeclare checks a declaration of an existing queue: RESOURCE_LOCKED when
// it is another connection's exclusive queue or the exclusive flag differs,
// PRECONDITION_FAILED when another setting does.
func (b *Broker) redeclare(conn *Conn, q *memQueue, spec QueueSpec) error {
	if err := b.access(conn, q); err != nil {
		return err
	}
	if q.spec.Exclusive != spec.Exclusive {
		return b.locked(q.name)
	}
	q.touch()
	return b.equivalent("queue", q.name, queueSettings(q.spec), queueSettings(spec))
}

// access refuses conn another connection's exclusive queue.
func (b *Broker) access(conn *Conn, q *memQueue) error {
	if q.owner != nil && q.owner != conn {
		return b.locked(q.name)
	}
	return nil
}

func (b *Broker) locked(queue string) error {
	return b.errorf("405 RESOURCE_LOCKED - cannot obtain exclusive access to locked queue '%s'. It could be originally "+
		"declared on another connection or the exclusive property value does not match that of the original declaration.", queue)
}

// queueFor returns the queue called name if conn may use it. Call with b.mu held.
func (b *Broker) queueFor(conn *Conn, name string) (*memQueue, error) {
	q, err := b.lookup(name)
	if err != nil {
		return nil, err
	}
	return q, b.access(conn, q)
}

// dropExclusive deletes the exclusive queues of conn, as the broker does
// when their connection closes.
func (b *Broker) dropExclusive(conn *Conn) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, q := range b.queues {
		if q.owner == conn {
			b.deleteQueue(q)
		}
	}
}

// declareExchange creates name or checks that it matches spec.
func (b *Broker) declareExchange(name string, spec ExchangeSpec) error {
	if name == "" {
		return b.errorf("403 ACCESS_REFUSED - the default exchange cannot be declared")
	}
	switch spec.Kind {
	case "direct", "topic", "fanout", "headers":
	default:
		return b.errorf("503 COMMAND_INVALID - unknown exchange type %q for exchange %q", spec.Kind, name)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if x, ok := b.exchanges[name]; ok {
		return b.equivalent("exchange", name, exchangeSettings(x.spec), exchangeSettings(spec))
	}
	if strings.HasPrefix(name, reservedPrefix) {
		return b.errorf("403 ACCESS_REFUSED - exchange name '%s' contains reserved prefix 'amq.*'", name)
	}
	b.exchanges[name] = &memExchange{name: name, spec: spec}
	return nil
}

// bind adds a binding; queue and exchange must exist. Binding twice is a no-op.
func (b *Broker) bind(conn *Conn, queue, exchange, key string) error {
	if exchange == "" {
		return b.errorf("403 ACCESS_REFUSED - queue %q cannot be bound to the default exchange", queue)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	x, ok := b.exchanges[exchange]
	if !ok {
		return b.errorf("404 NOT_FOUND - no exchange %q", exchange)
	}
	if _, err := b.queueFor(conn, queue); err != nil {
		return err
	}
	bd := memBinding{queue: queue, key: key}
	if !slices.Contains(x.bindings, bd) {
		x.bindings = append(x.bindings, bd)
	}
	return nil
}

// lookup returns the queue called name or a NOT_FOUND error. Call with b.mu held.
func (b *Broker) lookup(name string) (*memQueue, error) {
	q, ok := b.queues[name]
	if !ok {
		return nil, b.errorf("404 NOT_FOUND - no queue %q", name)
	}
	return q, nil
}

// messageCount counts the ready messages of queue.
func (b *Broker) messageCount(conn *Conn, queue string) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	q, err := b.queueFor(conn, queue)
	if err != nil {
		return 0, err
	}
	q.touch()
	q.expire(time.Now())
	return len(q.ready), nil
}

// pull takes the next ready message of queue, settled as it is taken.
func (b *Broker) pull(conn *Conn, queue string) (Delivery, bool, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	q, err := b.queueFor(conn, queue)
	if err != nil {
		return Delivery{}, false, err
	}
	if q.log != nil {
		return Delivery{}, false, b.notOnStream("basic.get", queue)
	}
	m := q.takeHead()
	if m == nil {
		return Delivery{}, false, nil
	}
	return q.deliveryOf(m, settled{}, true), true, nil
}

func queueSettings(s QueueSpec) map[string]any {
	m := map[string]any{"durable": s.Durable, "auto_delete": s.AutoDelete, "exclusive": s.Exclusive}
	maps.Copy(m, s.Args)
	return m
}

func exchangeSettings(s ExchangeSpec) map[string]any {
	m := map[string]any{"type": s.Kind, "durable": s.Durable, "auto_delete": s.AutoDelete}
	maps.Copy(m, s.Args)
	return m
}

// equivalent refuses a redeclaration whose settings differ, naming the first
// differing argument like RabbitMQ's 406 PRECONDITION_FAILED.
func (b *Broker) equivalent(kind, name string, current, received map[string]any) error {
	keys := slices.Sorted(maps.Keys(current))
	for k := range received {
		if _, ok := current[k]; !ok {
			keys = append(keys, k)
		}
	}
	for _, k := range keys {
		c, inC := current[k]
		r, inR := received[k]
		if inC != inR || !reflect.DeepEqual(normalizeArg(c), normalizeArg(r)) {
			return b.errorf("406 PRECONDITION_FAILED - inequivalent arg '%s' for %s '%s': received %s but current is %s",
				k, kind, name, renderArg(r, inR), renderArg(c, inC))
		}
	}
	return nil
}

func renderArg(v any, present bool) string {
	if !present {
		return "none"
	}
	return fmt.Sprintf("'%v'", v)
}

// normalizeArg makes numbers of any width and strings of any form compare equal.
func normalizeArg(v any) any {
	switch x := v.(type) {
	case int, int8, int16, int32, int64:
		return reflect.ValueOf(x).Int()
	case uint, uint8, uint16, uint32, uint64:
		return int64(reflect.ValueOf(x).Uint())
	case float32:
		return normalizeFloat(float64(x))
	case float64:
		return normalizeFloat(x)
	case time.Duration:
		return x.Milliseconds()
	case []byte:
		return string(x)
	}
	return v
}

func normalizeFloat(f float64) any {
	if f == float64(int64(f)) {
		return int64(f)
	}
	return f
}
