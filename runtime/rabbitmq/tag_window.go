package rabbitmq

// tagState is where one delivery of a channel stands in its settlement.
type tagState uint8

const (
	tagOut  tagState = iota // handed to the consumer, not settled
	tagHeld                 // acked, the ack not sent yet
	tagDone                 // settled with the broker
)

// maxTagGap is the widest jump in delivery tags the window fills in; a
// delivery past it is not tracked, and its ack is sent on its own.
const maxTagGap = 1 << 16

// tagWindow is the settlement state of a channel's deliveries from the
// first one still being handled: state[i] is tag low+i's. Below low every
// delivery is settled or held; top is the highest held one there.
type tagWindow struct {
	low    uint64
	state  []tagState
	buf    []tagState // state's array, reused once state empties
	top    uint64     // highest held tag below low (0: none)
	prefix int        // held tags below low
	above  int        // held tags from low on
}

// held is how many acks are held.
func (w *tagWindow) held() int { return w.prefix + w.above }

// outstanding reports whether a delivery is still being handled.
func (w *tagWindow) outstanding() bool { return len(w.state) > 0 }

// add records delivery tag as handed to the consumer. Tags come in order;
// tags skipped (none, from RabbitMQ) count as settled.
func (w *tagWindow) add(tag uint64) {
	next := w.low + uint64(len(w.state))
	switch {
	case tag < next:
		return
	case len(w.state) == 0:
		w.low, w.state = tag, w.buf[:0]
	case tag-next > maxTagGap:
		return
	}
	for ; next < tag && len(w.state) > 0; next++ {
		w.state = append(w.state, tagDone)
	}
	w.state = append(w.state, tagOut)
	if cap(w.state) > cap(w.buf) {
		w.buf = w.state[:0]
	}
}

// mark records that tag was settled (tagDone) or acked and held (tagHeld).
// It reports false for a tag the window does not hold as outstanding (not
// told of, or settled already): its settlement is sent on its own.
func (w *tagWindow) mark(tag uint64, s tagState) bool {
	if tag < w.low || tag-w.low >= uint64(len(w.state)) || w.state[tag-w.low] != tagOut {
		return false
	}
	w.state[tag-w.low] = s
	if s == tagHeld {
		w.above++
	}
	w.advance()
	return true
}

// advance moves low past the settled and held deliveries at the front.
func (w *tagWindow) advance() {
	for len(w.state) > 0 && w.state[0] != tagOut {
		if w.state[0] == tagHeld {
			w.top, w.prefix, w.above = w.low, w.prefix+1, w.above-1
		}
		w.state = w.state[1:]
		w.low++
	}
	if len(w.state) == 0 {
		w.state = w.buf[:0]
	}
}

// takeHeld empties the window of held acks: it returns the tag a multiple
// ack settles those below low with (0: none), and calls each for every
// held tag from low on, to be acked on its own.
func (w *tagWindow) takeHeld(each func(tag uint64)) (top uint64) {
	top = w.top
	if w.above > 0 {
		for i, s := range w.state {
			if s == tagHeld {
				w.state[i] = tagDone
				each(w.low + uint64(i))
			}
		}
	}
	w.top, w.prefix, w.above = 0, 0, 0
	return top
}

// takePrefix empties the window of the acks held below low, returning the
// tag a multiple ack settles them with (0: none).
func (w *tagWindow) takePrefix() (top uint64) {
	top, w.top, w.prefix = w.top, 0, 0
	return top
}
