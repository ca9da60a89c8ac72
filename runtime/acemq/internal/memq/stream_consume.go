package memq

import "time"

// checkConsumerArgs refuses a subscription RabbitMQ refuses: a stream's
// (checkStreamConsumer), or one with x-stream-offset on a queue that is not
// a stream, which RabbitMQ 3.10 refuses with "invalid arg".
func (b *Broker) checkConsumerArgs(q *memQueue, spec ConsumeSpec) error {
	if q.log != nil {
		return b.checkStreamConsumer(q, spec)
	}
	if _, ok := spec.Args[ArgStreamOffset]; ok {
		return b.errorf("406 PRECONDITION_FAILED - invalid arg '%s' for queue '%s' in vhost '/' of queue type %s", ArgStreamOffset, q.name, q.rabbitType())
	}
	return nil
}

// checkStreamConsumer refuses a stream subscription RabbitMQ refuses: one
// without a prefetch, or with an x-stream-offset that is no position.
func (b *Broker) checkStreamConsumer(q *memQueue, spec ConsumeSpec) error {
	if spec.Prefetch <= 0 {
		return b.errorf("406 PRECONDITION_FAILED - consumer prefetch count is not set for 'queue '%s' in vhost '/''", q.name)
	}
	v, ok := spec.Args[ArgStreamOffset]
	if !ok {
		return nil
	}
	switch x := normalizeArg(v).(type) {
	case int64, time.Time:
		return nil
	case string:
		if x == "first" || x == "next" || x == "last" {
			return nil
		}
	}
	return b.errorf("406 PRECONDITION_FAILED - invalid %s %v for stream queue '%s': want first, next, last, an offset or a timestamp", ArgStreamOffset, v, q.name)
}

// dispatchStream hands every subscription of a stream queue the records
// from its cursor on, as many as its prefetch allows; a cursor that fell
// behind retention moves to the oldest record held, as RabbitMQ's does.
// Call with b.mu held.
func (q *memQueue) dispatchStream() {
	q.log.trim(time.Now())
	for _, s := range q.consumers {
		for s.hasRoom() && s.cursor < q.log.next {
			s.cursor = max(s.cursor, q.log.first())
			r, _ := q.log.at(s.cursor)
			s.assignRecord(r)
			s.cursor++
		}
	}
}

// assignRecord gives r to the subscription, its offset in the
// x-stream-offset header as RabbitMQ sends it. Call with b.mu held.
func (s *Subscription) assignRecord(r memRecord) {
	s.q.b.nextTag++
	tag := s.q.b.nextTag
	s.unacked[tag] = r.m
	d := r.m.delivery(&acker{s: s, tag: tag})
	if d.Headers == nil {
		d.Headers = map[string]any{}
	}
	d.Headers[ArgStreamOffset] = r.offset
	s.pending = append(s.pending, d)
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// notOnStream is RabbitMQ's refusal of an operation a stream queue does not
// have (basic.get, basic.nack, basic.reject).
func (b *Broker) notOnStream(op, queue string) error {
	return b.errorf("540 NOT_IMPLEMENTED - %s not supported by stream queues queue '%s' in vhost '/'", op, queue)
}

// rabbitType is the queue's type as RabbitMQ names its module in errors.
func (q *memQueue) rabbitType() string {
	switch {
	case q.log != nil:
		return "rabbit_stream_queue"
	case q.quorum:
		return "rabbit_quorum_queue"
	}
	return "rabbit_classic_queue"
}
