package generator

import "github.com/hamba/avro/v2"

// compatDir says which schema reads and which writes in a compatibility check.
type compatDir int

const (
	// forward: the BASE schema reads what the new schema writes.
	compatForward compatDir = iota
	// backward: the new schema reads what the BASE schema wrote.
	compatBackward
)

// order returns BASE and new schemas as (reader, writer) for d.
func (d compatDir) order(base, next avro.Schema) (reader, writer avro.Schema) {
	if d == compatForward {
		return base, next
	}
	return next, base
}

// compatRole is what a message's kind means for compatibility: the direction its
// owner needs and the words each rule uses.
type compatRole struct {
	dir     compatDir
	rule    string // the direction rule, for the message's own direction
	removed string // what removing (or re-kinding) the message breaks
	routing string // what a new routing key breaks
	codec   string // what a new codec breaks
	// also is the rule of the other direction when the role needs both
	// (a stream's records); "" when only --full demands it.
	also string
}

// The roles of the five kinds of message.
var (
	compatStream = compatRole{
		dir:     compatForward,
		rule:    "a stream's records must stay readable by readers built from BASE: forward compatibility",
		also:    "a stream is read long after it was written, so the new readers must read the records writers built from BASE appended: backward compatibility",
		removed: "its records stay in the stream and readers built from BASE still read it, so removing a stream breaks its readers",
		routing: "readers built from BASE read the old stream and see nothing new",
		codec:   "readers built from BASE cannot decode what the new writer appends, nor the new readers what is already in the stream",
	}
	compatEvent = compatRole{
		dir:     compatForward,
		rule:    "an event must stay readable by consumers built from BASE: forward compatibility",
		removed: "consumers built from BASE still subscribe to it, so removing a message breaks its readers",
		routing: "queues of consumers built from BASE are bound to the old key and receive nothing",
		codec:   "consumers built from BASE cannot decode what the new publisher sends",
	}
	compatResponse = compatRole{
		dir:     compatForward,
		rule:    "an RPC response must stay readable by callers built from BASE: forward compatibility",
		removed: "callers built from BASE still wait for it, so removing a message breaks its readers",
		routing: "callers built from BASE still use the old key",
		codec:   "callers built from BASE cannot decode what the new server replies",
	}
	compatCommand = compatRole{
		dir:     compatBackward,
		rule:    "a command must stay readable when sent by producers built from BASE: backward compatibility",
		removed: "producers built from BASE still send it and nothing reads it any more, so removing a message breaks its readers",
		routing: "producers built from BASE still send with the old key, which the queue no longer binds",
		codec:   "the new consumer cannot decode what producers built from BASE send",
	}
	compatRequest = compatRole{
		dir:     compatBackward,
		rule:    "an RPC request must stay readable when sent by callers built from BASE: backward compatibility",
		removed: "callers built from BASE still send it and nothing serves it any more, so removing a message breaks its readers",
		routing: "callers built from BASE still send with the old key",
		codec:   "the new server cannot decode what callers built from BASE send",
	}
)

// compatRoleOf tells published messages (events, RPC responses) from consumed
// ones (commands, RPC requests).
func compatRoleOf(kind string) compatRole {
	switch kind {
	case "command":
		return compatCommand
	case "rpc-request", "request":
		return compatRequest
	case "rpc-response", "response":
		return compatResponse
	case "stream":
		return compatStream
	}
	return compatEvent
}

// compatFullRule is the rule named when --full demands the direction the
// message's role does not.
func compatFullRule(d compatDir) string {
	if d == compatForward {
		return "--full: readers built from BASE must read what the new schema writes: forward compatibility"
	}
	return "--full: the new schema must read what writers built from BASE wrote: backward compatibility"
}

// compatChecks lists the directions to check for a message of role r, each with
// the rule a failure cites.
func compatChecks(r compatRole, cfg compatConfig) []compatCheck {
	out := []compatCheck{{dir: r.dir, rule: r.rule}}
	switch {
	case r.also != "":
		out = append(out, compatCheck{dir: 1 - r.dir, rule: r.also})
	case cfg.full:
		other := 1 - r.dir
		out = append(out, compatCheck{dir: other, rule: compatFullRule(other)})
	}
	return out
}

// compatCheck is one direction to verify and the rule it enforces.
type compatCheck struct {
	dir  compatDir
	rule string
	base string // what the older schema is called in findings; "" is BASE
}
