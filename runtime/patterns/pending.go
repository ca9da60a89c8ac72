package patterns

import (
	"sync"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// pendingCalls are the requests waiting for a reply, by correlation id.
// Safe for concurrent use.
type pendingCalls struct {
	mu sync.Mutex
	m  map[string]chan driver.Delivery
}

func newPendingCalls() *pendingCalls {
	return &pendingCalls{m: map[string]chan driver.Delivery{}}
}

// add registers a call under a fresh correlation id.
func (p *pendingCalls) add() (string, chan driver.Delivery) {
	id, ch := acemq.NewUUID(), make(chan driver.Delivery, 1)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.m[id] = ch
	return id, ch
}

// remove forgets a call; a reply arriving after it is late.
func (p *pendingCalls) remove(id string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.m, id)
}

// resolve hands d to the call waiting under id, once; it reports false when
// no call waits (a late or a duplicate reply).
func (p *pendingCalls) resolve(id string, d driver.Delivery) bool {
	p.mu.Lock()
	ch, ok := p.m[id]
	delete(p.m, id)
	p.mu.Unlock()
	if ok {
		ch <- d
	}
	return ok
}
