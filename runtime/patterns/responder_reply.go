package patterns

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// replyTarget is where and how one reply goes; the reply's publish path
// reads it from ctx.
type replyTarget struct {
	address     string
	correlation string
	deadline    time.Time
	bounded     bool
}

type replyKey struct{}

// reply sends h's answer or failure and settles the request: accepted once
// answered (a declared failure is an answer), dead-lettered after an
// undeclared failure, retried when the reply could not be sent.
func (s *server[Req, Resp]) reply(ctx context.Context, m acemq.Message[Req], t replyTarget, resp Resp, err error) acemq.Ack {
	t.correlation = m.Envelope.CorrelationID
	s.r.answered.Add(1) // before the publish, so a caller holding the reply sees it counted
	rctx := context.WithValue(ctx, replyKey{}, t)
	opts := []acemq.EnvelopeOption{acemq.CorrelationID(t.correlation), acemq.CausationID(m.Envelope.ID),
		acemq.MessageType(m.Envelope.Type + ".reply")}
	if err != nil {
		return s.replyFailure(ctx, rctx, m, t, opts, err)
	}
	_, perr := acemq.SendTo(rctx, s.answers, "", t.address, resp, opts...)
	return s.settled(perr, acemq.Accept())
}

// replyFailure sends a declared failure (the request is accepted: it was
// answered) or the generic one (the request is dead-lettered with err, which
// is also logged, and never sent).
func (s *server[Req, Resp]) replyFailure(ctx, rctx context.Context, m acemq.Message[Req], t replyTarget, opts []acemq.EnvelopeOption, err error) acemq.Ack {
	var declared *DeclaredError
	if errors.As(err, &declared) {
		opts = append(opts, acemq.Header(HeaderError, declared.code), acemq.Header(HeaderErrorCode, declared.code))
		return s.settled(s.fail(rctx, t, opts), acemq.Accept())
	}
	s.conn.Logger().ErrorContext(ctx, "acemq: a responder's handler failed; the caller gets a generic failure and the request is dead-lettered",
		"queue", s.queue, "message", m.Envelope.ID, "error", err)
	opts = append(opts, acemq.Header(HeaderError, genericFailure(m.Envelope.ID)))
	return s.settled(s.fail(rctx, t, opts), acemq.Reject(err))
}

// fail sends a failure reply: its headers say what failed, and its body is
// the RPC codec's null (failureBody), so a requester that decodes every reply
// before it reads the headers, as the family's Python library does, reads it
// too. A codec that writes no null sends the empty application/octet-stream
// body of earlier versions, which Go requesters read.
func (s *server[Req, Resp]) fail(ctx context.Context, t replyTarget, opts []acemq.EnvelopeOption) error {
	body, pub := failureBody[Resp](s.codec), s.failures
	if body == nil {
		body, pub = []byte{}, s.bare
	}
	_, err := acemq.SendTo(ctx, pub, "", t.address, body, opts...)
	return err
}

// settled returns ack once the reply is sent; a reply that could not be
// sent is taken back from Answered and retries the request.
func (s *server[Req, Resp]) settled(publishErr error, ack acemq.Ack) acemq.Ack {
	if publishErr != nil {
		s.r.answered.Add(-1)
		return acemq.Retry(fmt.Errorf("acemq: cannot send the reply: %w", publishErr))
	}
	return ack
}

// sendReply is the end of a reply's publish path: it stamps the AMQP
// correlation-id and, under a deadline, the expiration, so a reply nobody
// waits for does not linger in a reply queue.
func (s *server[Req, Resp]) sendReply(ctx context.Context, exchange, key string, msg driver.Outbound) (acemq.PublishResult, error) {
	if t, ok := ctx.Value(replyKey{}).(replyTarget); ok {
		msg.CorrelationID = t.correlation
		if t.bounded {
			msg.Expiration = fmt.Sprint(max(time.Until(t.deadline).Milliseconds(), 1))
		}
	}
	return s.conn.PublishRaw(ctx, exchange, key, msg)
}
