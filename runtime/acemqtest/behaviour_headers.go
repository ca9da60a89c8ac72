package acemqtest

import (
	"fmt"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

var headerCases = []behaviourCase{
	{"headers/a-declared-header-of-another-type-is-dead-lettered-naming-both-types", declaredHeaderMistyped},
	{"headers/integer-widths-follow-the-wire", headerIntegerWidths},
}

func declaredHeaderMistyped(k *bkit) {
	q := k.queue()
	rec := newRecorder(nil)
	k.consume(nil, q, rec.handle, consumeHeaderRules(acemq.HeaderRule{Name: "tenant", Type: acemq.StringHeader}))
	k.send(q, order{ID: "mistyped"}, acemq.Header("tenant", 42))
	expectSetAside(k, acemq.DeadLetterQueue(q), "mistyped", `the message's header "tenant" must be a string; it is an int32`)
	expectOnlyGoodHandled(k, q, rec, "typed", "whose header is a string")
}

// headerIntegerWidths sends an int and a long header in every integer width
// the transport carries: each is handled, none is dead-lettered, and an int
// beyond 32 bits is.
func headerIntegerWidths(k *bkit) {
	q := k.queue()
	rec := newRecorder(nil)
	k.consume(nil, q, rec.handle, consumeHeaderRules(
		acemq.HeaderRule{Name: "n", Type: acemq.IntHeader}, acemq.HeaderRule{Name: "l", Type: acemq.LongHeader}))
	widths := []any{int(7), int8(7), int16(7), int32(7), int64(7), uint(7), uint8(7), uint16(7), uint32(7), uint64(7)}
	for i, v := range widths {
		id := fmt.Sprintf("%T", v)
		k.send(q, order{ID: id}, acemq.Header("n", v), acemq.Header("l", widths[len(widths)-1-i]))
		rec.expect(k, id)
	}
	k.send(q, order{ID: "wide"}, acemq.Header("n", int64(1)<<40))
	expectSetAside(k, acemq.DeadLetterQueue(q), "wide",
		`the message's header "n" must be an int; it is an int64 out of an int's range (1099511627776)`)
	if n := rec.handled(); n != len(widths) {
		k.t.Errorf("handled %d messages, want %d", n, len(widths))
	}
}
