package rabbitmq

import (
	"fmt"
	"sync"

	amqp "github.com/rabbitmq/amqp091-go"
)

// maxUnclaimedReturns bounds returns kept for messages nobody asks about.
const maxUnclaimedReturns = 64

// returnQuery asks the returns goroutine whether message id came back.
type returnQuery struct {
	id       string
	expected bool // a claim of an expected return (see expect)
	reply    chan returnAnswer
}

type returnAnswer struct {
	reason   string
	returned bool
}

// returnLog files basic.return frames by message id. One goroutine owns it;
// because the broker sends a message's return before its confirm, and the
// goroutine takes each return before amqp091 moves on to the next frame, a
// query made after the confirm always sees that message's return.
type returnLog struct {
	returns <-chan amqp.Return
	queries chan returnQuery
	done    chan struct{}
	mu      sync.Mutex // guards filed, order, expected and kept (queried directly once done)
	filed   map[string][]string
	order   []string
	// expected counts the expect calls per message id not yet met by a
	// return; kept holds the returns that met them, outside the bound of
	// maxUnclaimedReturns, until claimed.
	expected map[string]int
	kept     map[string][]string
}

// newReturnLog files the returns arriving on returns (amqp091's
// NotifyReturn channel, unbuffered so each hand-over completes in order).
func newReturnLog(returns <-chan amqp.Return) *returnLog {
	r := &returnLog{returns: returns,
		queries: make(chan returnQuery), done: make(chan struct{}), filed: map[string][]string{},
		expected: map[string]int{}, kept: map[string][]string{}}
	go r.run()
	return r
}

func (r *returnLog) run() {
	defer close(r.done)
	for {
		select {
		case ret, ok := <-r.returns:
			if !ok {
				return
			}
			r.file(ret)
		case q := <-r.queries:
			q.reply <- r.answer(q)
		}
	}
}

func (r *returnLog) file(ret amqp.Return) {
	r.mu.Lock()
	defer r.mu.Unlock()
	id, reason := ret.MessageId, fmt.Sprintf("%d %s", ret.ReplyCode, ret.ReplyText)
	if r.expected[id] > 0 {
		r.keep(id, reason)
		return
	}
	r.filed[id] = append(r.filed[id], reason)
	r.order = append(r.order, id)
	for len(r.order) > maxUnclaimedReturns {
		r.drop(r.order[0])
		r.order = r.order[1:]
	}
}

// drop forgets the oldest return filed under id.
func (r *returnLog) drop(id string) {
	if rs := r.filed[id]; len(rs) > 1 {
		r.filed[id] = rs[1:]
		return
	}
	delete(r.filed, id)
}

func (r *returnLog) take(id string) returnAnswer {
	r.mu.Lock()
	defer r.mu.Unlock()
	rs := r.filed[id]
	if len(rs) == 0 {
		return returnAnswer{}
	}
	r.drop(id)
	for i, o := range r.order {
		if o == id {
			r.order = append(r.order[:i], r.order[i+1:]...)
			break
		}
	}
	return returnAnswer{reason: rs[0], returned: true}
}

// returned reports whether message id came back unroutable, and why.
func (r *returnLog) returned(id string) (string, bool) {
	return r.ask(returnQuery{id: id, reply: make(chan returnAnswer, 1)})
}

// ask answers q through the goroutine that files the returns, so that every
// return handed over before the query is seen.
func (r *returnLog) ask(q returnQuery) (string, bool) {
	var a returnAnswer
	select {
	case r.queries <- q:
		a = <-q.reply
	case <-r.done: // the channel closed: every return it got is filed
		a = r.answer(q)
	}
	return a.reason, a.returned
}

// answer is q's answer from what is filed.
func (r *returnLog) answer(q returnQuery) returnAnswer {
	if q.expected {
		return r.takeKept(q.id)
	}
	return r.take(q.id)
}
