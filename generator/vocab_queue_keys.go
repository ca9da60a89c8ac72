package generator

import (
	"fmt"
	"reflect"
	"slices"

	"github.com/acemq/acemq-gen/runtime/acemqimpl"
	"github.com/dave/jennifer/jen"
)

// QueueSettings are what a contract says of the queues a message (or an
// rpc's requests) is consumed from: the run-time value itself
// (acemqimpl.QueueKeys), which generated specifications hold as a literal
// and the CLI's operations take as it is.
type QueueSettings = acemqimpl.QueueKeys

// queueKey is the generator's facts of one key of an event, command or rpc
// about the queues it is consumed from.
type queueKey struct {
	name   string            // the contract's key; x-acemq-<name> in AsyncAPI
	field  string            // the acemqimpl.QueueKeys field it sets
	what   string            // what it sets, for diagnostics
	values []string          // the values of a string key; nil for an integer key
	consts map[string]string // the acemq constant of each value, when there is one
	on     string            // the value that sets a bool field
	// summary says what a value v of the key does, as fmt.Sprintf(summary, v),
	// for a specification's doc.
	summary string
	// fileDefault says a contract file's key of the same name is the default.
	fileDefault bool
}

// queueKeyTable is every queue key, in the order a specification and an
// AsyncAPI channel list them. It is the one place a queue key is spelled.
var queueKeyTable = []queueKey{
	{name: "delivery-limit", field: "DeliveryLimit",
		what:    "the deliveries after which the broker dead-letters a message",
		summary: "its queues dead-letter a message returned to them more than %v times (x-delivery-limit)"},
	{name: "leader-locator", field: "LeaderLocator", what: "the node that leads each new quorum queue",
		values:  []string{"client-local", "balanced"},
		consts:  map[string]string{"client-local": "LeaderClientLocal", "balanced": "LeaderBalanced"},
		summary: "its queues' leader locator is %v (x-queue-leader-locator)"},
	{name: "dead-letter-strategy", field: "AtLeastOnceDeadLettering", what: "how quorum queues dead-letter",
		values: []string{"at-most-once", "at-least-once"}, on: "at-least-once", summary: "%v dead-lettering"},
	{name: "set-aside-queues", field: "SetAside", what: "the type of the {queue}.dlq and {queue}.parked queues",
		values:  []string{"classic", "quorum"},
		consts:  map[string]string{"classic": "QueueClassic", "quorum": "QueueQuorum"},
		summary: "its {queue}.dlq and {queue}.parked are %v queues", fileDefault: true},
}

// queueKeyNames are the names of queueKeyTable, the keys an event, command
// or rpc may hold besides its own.
func queueKeyNames() []string {
	out := make([]string, len(queueKeyTable))
	for i, k := range queueKeyTable {
		out[i] = k.name
	}
	return out
}

// queueKeyFor is the row of name and whether the table has one.
func queueKeyFor(name string) (queueKey, bool) {
	for _, k := range queueKeyTable {
		if k.name == name {
			return k, true
		}
	}
	return queueKey{}, false
}

// queueSummaries say what q does, for a specification's doc.
func queueSummaries(q QueueSettings) []string {
	var out []string
	for _, k := range queueKeyTable {
		if v := k.value(q); v != nil {
			out = append(out, fmt.Sprintf(k.summary, v))
		}
	}
	return out
}

// value is what q holds for the key as the contract spells it (an int or a
// string), or nil when q does not set it.
func (k queueKey) value(q QueueSettings) any {
	v := reflect.ValueOf(q).FieldByName(k.field)
	switch {
	case v.IsZero():
		return nil
	case v.Kind() == reflect.Bool:
		return k.on
	case v.Kind() == reflect.String:
		return v.String()
	}
	return int(v.Int())
}

// code is the Go value of the key's field in q's literal.
func (k queueKey) code(v any) jen.Code {
	if s, ok := v.(string); ok {
		if c, ok := k.consts[s]; ok {
			return qual(c)
		}
		if s == k.on {
			return jen.True()
		}
	}
	return jen.Lit(v)
}

// queueKeysCode is q as an acemqimpl.QueueKeys literal; nil when q sets no key.
func queueKeysCode(q QueueSettings) jen.Code {
	var fields []jen.Code
	for _, k := range queueKeyTable {
		if v := k.value(q); v != nil {
			fields = append(fields, jen.Id(k.field).Op(":").Add(k.code(v)))
		}
	}
	if len(fields) == 0 {
		return nil
	}
	return impl("QueueKeys").Values(fields...)
}

// QueueKeyValues returns the values each string queue key takes, by key. The
// JSON Schema in schemas/ is tested against it.
func QueueKeyValues() map[string][]string {
	out := map[string][]string{}
	for _, k := range queueKeyTable {
		if k.values != nil {
			out[k.name] = slices.Clone(k.values)
		}
	}
	return out
}

// queueTypes is the row of the set-aside-queues key: the queue types a
// contract may name (classic, quorum) and acemq's constant of each, which
// the schedule-ladder key takes too.
var queueTypes = func() queueKey {
	i := slices.IndexFunc(queueKeyTable, func(k queueKey) bool { return k.name == "set-aside-queues" })
	return queueKeyTable[i]
}()

// queueTypeConst is acemq's constant of the queue type t ("classic" →
// QueueClassic).
func queueTypeConst(t string) string { return queueTypes.consts[t] }
