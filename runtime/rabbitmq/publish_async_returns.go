package rabbitmq

// A pipelined publish may be waited for long after its return arrived, with
// many others returned in between (a batch of unroutable mandatory messages),
// so its return is set aside for it rather than kept among the
// maxUnclaimedReturns returns nobody asked for.

// expect sets aside the return of message id, should one come, until claim
// or forget; each expect is ended by exactly one of them. Call it before the
// message is written.
func (r *returnLog) expect(id string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.expected[id]++
}

// claim ends an expect made for a message whose confirm has arrived: whether
// it came back unroutable, and why. The broker returns a message before it
// confirms it, so the answer is final.
func (r *returnLog) claim(id string) (string, bool) {
	return r.ask(returnQuery{id: id, expected: true, reply: make(chan returnAnswer, 1)})
}

// forget ends an expect made for a message that was not written.
func (r *returnLog) forget(id string) { r.takeKept(id) }

// keep sets aside a return of an expected message. r.mu must be held.
func (r *returnLog) keep(id, reason string) {
	r.unexpect(id)
	r.kept[id] = append(r.kept[id], reason)
}

// takeKept ends one expect of id: the return set aside for it, or, when none
// came, the expectation itself.
func (r *returnLog) takeKept(id string) returnAnswer {
	r.mu.Lock()
	defer r.mu.Unlock()
	rs := r.kept[id]
	if len(rs) == 0 {
		r.unexpect(id)
		return returnAnswer{}
	}
	if len(rs) == 1 {
		delete(r.kept, id)
	} else {
		r.kept[id] = rs[1:]
	}
	return returnAnswer{reason: rs[0], returned: true}
}

// unexpect takes one expect of id away. r.mu must be held.
func (r *returnLog) unexpect(id string) {
	if r.expected[id] <= 1 {
		delete(r.expected, id)
		return
	}
	r.expected[id]--
}
