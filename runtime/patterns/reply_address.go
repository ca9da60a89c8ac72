package patterns

import (
	"fmt"
	"strings"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

// The reply addresses of the family's requesters that need no further
// check: RabbitMQ's direct reply-to (memory:// names its own the same way)
// and the generated acemq-reply-<uuid> queue.
const (
	directReplyTo    = "amq.rabbitmq.reply-to"
	replyQueuePrefix = "acemq-reply-"
)

// replyRefusal returns why a responder serving queue on conn sends no reply
// to address, "" when it does. The family's forms are direct reply-to,
// acemq-reply-<uuid> and a named reply queue (ReplyTo); a named address is
// refused when it names a queue that is certainly not a reply queue: the
// request queue itself, a set-aside or retry rung queue, a broker amq.*
// name, or a queue a consumer of conn reads (a command queue of the same
// service), where the reply would be taken for one of its messages.
func replyRefusal(conn *acemq.Conn, queue, address string) string {
	switch {
	case address == directReplyTo || strings.HasPrefix(address, directReplyTo+"."):
		return ""
	case strings.HasPrefix(address, replyQueuePrefix):
		return ""
	case address == queue:
		return "it is the request queue itself"
	case strings.HasSuffix(address, ".dlq"), strings.HasSuffix(address, ".parked"), strings.Contains(address, ".retry."):
		return "it is a set-aside or retry queue"
	case strings.HasPrefix(address, "amq."):
		return "amq. names are the broker's"
	case conn.ConsumesFrom(address):
		return "a consumer of this connection reads it, so it is not a reply queue"
	}
	return ""
}

// refuseReply rejects (dead-letters) a request whose reply address is
// refused, counting it unanswerable; no reply is sent.
func refuseReply(r *Responder, m acemq.Envelope, address, why string) acemq.Ack {
	r.unanswerable.Add(1)
	return acemq.Reject(acemq.Fatalf("acemq: request %s names the reply address %s, which this responder refuses (%s); no reply was sent",
		m.ID, quoteAddress(address), why))
}

// quoteAddress renders a reply address taken from a request for a reason
// string: quoted, cut to 200 bytes.
func quoteAddress(address string) string {
	if len(address) > 200 {
		return fmt.Sprintf("%q…", address[:200])
	}
	return fmt.Sprintf("%q", address)
}
