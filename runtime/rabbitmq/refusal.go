package rabbitmq

import (
	"errors"
	"fmt"
	"strings"

	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

// RefusedError is the error of a publish the broker refused for certain by
// closing the publishing channel in answer to it, with the broker's code and
// text: 404 NOT_FOUND (no such exchange), 403 ACCESS_REFUSED (no write
// permission on the exchange), 406 PRECONDITION_FAILED (a message over
// max_message_size). The message was not delivered; sending it again is
// refused again, so the transport does not. It matches
// acemq.ErrBrokerRefused and, through errors.As, the broker's *amqp.Error.
type RefusedError struct {
	Broker *amqp.Error
}

// Error renders the refusal with the broker's code and text.
func (e *RefusedError) Error() string {
	return fmt.Sprintf("the broker refused it: %d %s", e.Broker.Code, e.Broker.Reason)
}

// Unwrap returns acemq.ErrBrokerRefused and the broker's error.
func (e *RefusedError) Unwrap() []error { return []error{acemq.ErrBrokerRefused, e.Broker} }

// refusalOf returns a *RefusedError when closed, the error the broker
// closed the publishing channel with, refuses this publish (to exchange,
// with a body of size bytes) for certain: a 404 or 403 naming its exchange,
// or a 406 naming its size as over max_message_size. Otherwise nil: the
// channel closed for another publish's sake, and this one's outcome is
// unknown.
func refusalOf(closed error, exchange string, size int) error {
	var ae *amqp.Error
	if !errors.As(closed, &ae) {
		return nil
	}
	quoted := "exchange '" + exchange + "'"
	switch {
	case ae.Code == amqp.NotFound && strings.Contains(ae.Reason, quoted),
		ae.Code == amqp.AccessRefused && strings.Contains(ae.Reason, quoted),
		ae.Code == amqp.PreconditionFailed && strings.Contains(ae.Reason, fmt.Sprintf("message size %d ", size)):
		return &RefusedError{Broker: ae}
	}
	return nil
}

// final reports whether err is a certain refusal no resend would change.
func final(err error) bool {
	var refused *RefusedError
	var tooLarge *acemq.FrameTooLargeError
	return errors.As(err, &refused) || errors.As(err, &tooLarge)
}
