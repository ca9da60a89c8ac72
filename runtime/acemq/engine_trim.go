package acemq

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/acemq/acemq-gen/runtime/internal/amqpvalue"
)

// maxTrims bounds how many times a set-aside is trimmed and sent again
// after the transport refused it as too large for frame_max.
const maxTrims = 4

// republishFitting republishes a set-aside as republish does; when the
// transport refuses it because its headers would not fit the connection's
// frame_max (a foreign publisher's headers nearly filled it, and the
// x-acemq-* headers the set-aside adds pushed it over), it drops the
// largest application headers, then cuts the reason, until it fits, and
// records what it dropped in the reason. p's envelope and reason become
// what was sent.
func (c *Consumer) republishFitting(d Delivery, p *plan) error {
	err := c.republish(d, p.target, p.env)
	var tooLarge *FrameTooLargeError
	for range maxTrims {
		if !errors.As(err, &tooLarge) {
			return err
		}
		p.env = trimmedToFit(p.env, tooLarge.Size-tooLarge.Limit)
		p.reason = p.env.Error
		err = c.republish(d, p.target, p.env)
	}
	return err
}

// trimmedToFit returns env with at least excess bytes of headers dropped:
// its largest application headers first (named in the reason), then the
// end of the reason itself. env is not modified.
func trimmedToFit(env Envelope, excess int) Envelope {
	names := slices.SortedFunc(maps.Keys(env.Headers), func(a, b string) int {
		return amqpvalue.EntrySize(b, env.Headers[b]) - amqpvalue.EntrySize(a, env.Headers[a])
	})
	headers := make(map[string]any, len(env.Headers))
	for k, v := range env.Headers {
		headers[k] = v
	}
	var dropped []string
	saved := 0
	for _, name := range names {
		if saved >= excess+len(droppedNote(dropped, saved)) {
			break
		}
		saved += amqpvalue.EntrySize(name, headers[name])
		dropped = append(dropped, name)
		delete(headers, name)
	}
	env.Headers = headers
	if len(dropped) > 0 {
		env.Error += droppedNote(dropped, saved)
	}
	if saved < excess {
		env.Error = cutReason(env.Error, excess-saved)
	}
	return env
}

// droppedNote is what a trimmed set-aside's reason says about the headers
// it dropped.
func droppedNote(dropped []string, bytes int) string {
	if len(dropped) == 0 {
		return ""
	}
	quoted := make([]string, len(dropped))
	for i, name := range dropped {
		quoted[i] = fmt.Sprintf("%.64q", name)
	}
	return fmt.Sprintf("; headers dropped to fit the broker's frame_max (%d bytes): %s", bytes, strings.Join(quoted, ", "))
}

// cutReason shortens reason by at least n bytes (and the marker it adds).
func cutReason(reason string, n int) string {
	const cut = " [cut to fit frame_max]"
	keep := max(0, len(reason)-n-len(cut))
	return strings.ToValidUTF8(reason[:keep], "") + cut
}

// parkUnretriable parks a message whose retry the transport refused as too
// large for frame_max (sending it again would be refused again), trimmed to
// fit, instead of returning it to its queue for ever.
func (c *Consumer) parkUnretriable(d Delivery, p *plan, err error) disposition {
	env := p.env
	env.Attempt = max(1, env.Attempt-1)
	*p = c.setAside(env, ParkedQueue(c.queue), ActionParked, OutcomeParked, "cannot be retried: "+reasonOf(err))
	return c.execute(d, p)
}
