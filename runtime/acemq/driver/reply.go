package driver

import (
	"context"
	"maps"
)

// ReplyToHeader is the family's application header naming the queue a reply
// goes to (FAMILY-SPEC §2.3); requesters write it beside the AMQP reply-to
// property, and responders read it first.
const ReplyToHeader = "acemq-reply-to"

// ReplyTransport is an optional Transport seam for request/reply: a
// transport that implements it gives each requester a private reply address
// without declaring a queue (RabbitMQ's direct reply-to,
// amq.rabbitmq.reply-to; memory:// has the equivalent). A requester whose
// transport lacks it falls back to an exclusive, auto-delete reply queue.
type ReplyTransport interface {
	// OpenReplies starts receiving replies: deliver is called, from one
	// goroutine, with every message sent to the channel's Address, already
	// settled (do not Ack or Nack it). Close the channel to stop.
	OpenReplies(ctx context.Context, deliver func(Delivery)) (ReplyChannel, error)
}

// ReplyChannel is a running reply subscription and the way requests must be
// published so that their replies reach it (RabbitMQ requires a direct
// reply-to request to be published on the channel that consumes the
// replies). Implementations must be safe for concurrent use.
type ReplyChannel interface {
	// Address is where replies go now. It may change when the transport
	// recovers a lost connection; Publish stamps the address current at the
	// moment it sends.
	Address() string
	// Publish sends msg like Transport.Publish, with msg.ReplyTo set to the
	// channel's address and, when msg carries the ReplyToHeader header, that
	// header too. msg.Headers is not modified.
	Publish(ctx context.Context, exchange, key string, msg Outbound) (PublishResult, error)
	// Close stops the replies. Idempotent.
	Close() error
}

// StampReplyAddress returns msg addressed to address: ReplyTo set and, when
// msg carries the ReplyToHeader header, that header replaced in a copy of
// the headers. It is what a ReplyChannel's Publish does first.
func StampReplyAddress(msg Outbound, address string) Outbound {
	msg.ReplyTo = address
	if _, ok := msg.Headers[ReplyToHeader]; ok {
		msg.Headers = maps.Clone(msg.Headers)
		msg.Headers[ReplyToHeader] = address
	}
	return msg
}
