package acemq

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
)

// HeaderValueType is the type a contract declares for an application header. A
// message whose header carries a value of another type is refused on publish
// and dead-lettered on consume. Integer widths follow the wire: an AMQP
// table may carry an integer in any width, and the peer (or the broker's
// client library) chooses it, so an int sent as int64 and received as
// int32 is the same int. The zero value, "", accepts any value.
type HeaderValueType string

// The header types of the contract format (docs/contracts.md), and the Go
// values each accepts, on publish and as a delivery carries them:
const (
	// StringHeader accepts a string, or a []byte (family peers may send
	// strings as AMQP byte arrays).
	StringHeader HeaderValueType = "string"
	// IntHeader accepts an integer of any width (int, int8 to int64, uint,
	// uint8 to uint64) whose value fits 32 signed bits.
	IntHeader HeaderValueType = "int"
	// LongHeader accepts an integer of any width whose value fits 64 signed bits.
	LongHeader HeaderValueType = "long"
	// BooleanHeader accepts a bool.
	BooleanHeader HeaderValueType = "boolean"
	// DoubleHeader accepts a float64 or a float32; not an integer.
	DoubleHeader HeaderValueType = "double"
)

// HeaderRule is what a contract says of one application header: its Name,
// its declared Type ("" when it declares none: any value passes) and
// whether every message must carry it (Required). A header a message does
// not carry passes unless Required; one it carries must have the Type.
// Generated packages pass their contract's rules to acemqimpl.PublishHeaderRules,
// ConsumeHeaderRules and HeaderRulesOf, which copy them: changing the slice
// afterwards changes nothing. A HeaderRule is a plain value.
type HeaderRule struct {
	Name     string
	Type     HeaderValueType
	Required bool
}

// bridgeHeaders (acemqimpl.PublishHeaderRules) makes a Send fail, before anything is sent, when the
// envelope (after the interceptors) breaks one of rules: it lacks a Required
// header (`acemq: a "<routing key>" message requires the header "<name>"`), or carries a header of another
// Type (a *HeaderTypeError). A rule without a name, or with a type that is
// not a HeaderValueType above, makes every Send fail. Default: no rules.
func (p *Publisher[T]) bridgeHeaders(rules []HeaderRule) {
	if err := checkRules(rules); err != nil {
		p.err = err
		return
	}
	p.headers = append(p.headers, rules...)
}

// consumeHeaderRules (acemqimpl.ConsumeHeaderRules) dead-letters, without running the handler, a delivery
// whose envelope (after the interceptors) breaks one of rules: the reason is
// `the message lacks the required header "<name>"` or `the message's header
// "<name>" must be a <type>; it is a <Go type>`. A rule without a name, or
// with an unknown type, fails Consume. Default: no rules.
func consumeHeaderRules(rules []HeaderRule) ConsumeOption {
	return func(cfg *consumeConfig) error {
		if err := checkRules(rules); err != nil {
			return err
		}
		cfg.headers = append(cfg.headers, rules...)
		return nil
	}
}

// headerRulesOf (acemqimpl.HeaderRulesOf) returns a ConnOption that enforces
// rules on every publisher whose payload isPayload accepts (a publish interceptor failing the Send as PublishHeaderRules does)
// and on every delivery of messageType, the envelope's type, which
// publishers set to the routing key (a consume interceptor: the message is
// dead-lettered with "an interceptor refused it: " and the reason
// ConsumeHeaderRules gives). Other payload and message types pass. A rule
// without a name, or with an unknown type, fails Connect. Safe for
// concurrent use.
func headerRulesOf(messageType string, isPayload func(any) bool, rules []HeaderRule) ConnOption {
	if err := checkRules(rules); err != nil {
		return func(*connConfig) error { return err }
	}
	rs := headerRules(append([]HeaderRule(nil), rules...))
	return connOptions(publishRules(isPayload, rs), consumeRules(messageType, rs))
}

// publishRules is the publish interceptor of headerRulesOf.
func publishRules(isPayload func(any) bool, rs headerRules) ConnOption {
	return WithPublishInterceptor(func(_ context.Context, c *PublishContext) error {
		if !isPayload(c.Payload) || c.Envelope == nil {
			return nil
		}
		return rs.publishError(c.RoutingKey, c.Envelope.Headers)
	})
}

// consumeRules is the consume interceptor of headerRulesOf.
func consumeRules(messageType string, rs headerRules) ConnOption {
	return WithConsumeInterceptor(func(_ context.Context, c *ConsumeContext) error {
		if c.Envelope == nil || c.Envelope.Type != messageType {
			return nil
		}
		if reason, broken := rs.consumeReason(c.Envelope.Headers); broken {
			return errors.New(reason)
		}
		return nil
	})
}

// HeaderTypeError is a publish refused because the header Header carried
// Value, which is not of the declared Type, on a message for RoutingKey.
type HeaderTypeError struct {
	RoutingKey string
	Header     string
	Type       HeaderValueType
	Value      any
}

// Error names the message, the header, the declared and the actual type:
// `acemq: a "order.placed" message requires the header "x-tenant" to be a
// string; it is an int`.
func (e *HeaderTypeError) Error() string {
	return fmt.Sprintf("acemq: a %q message requires the header %q to be %s; it is %s",
		e.RoutingKey, e.Header, withArticle(string(e.Type)), describeValue(e.Type, e.Value))
}

// checkRules refuses a rule without a name or with an unknown type.
func checkRules(rules []HeaderRule) error {
	for _, r := range rules {
		if r.Name == "" {
			return errors.New("acemq: a header rule needs a name")
		}
		if !r.Type.known() {
			return fmt.Errorf("acemq: header %q: %q is not a header type (boolean, int, long, double or string)", r.Name, r.Type)
		}
	}
	return nil
}

// headerRules are the rules a publisher or consumer enforces, in order.
type headerRules []HeaderRule

// firstBroken returns the first rule headers break and whether the header
// is missing (else it carries a value of another type).
func (rs headerRules) firstBroken(headers map[string]any) (rule HeaderRule, missing, broken bool) {
	for _, r := range rs {
		v, ok := headers[r.Name]
		if !ok && r.Required {
			return r, true, true
		}
		if ok && !r.Type.accepts(v) {
			return r, false, true
		}
	}
	return HeaderRule{}, false, false
}

// publishError is the error a publish breaking rs fails with; nil if none.
func (rs headerRules) publishError(routingKey string, headers map[string]any) error {
	r, missing, broken := rs.firstBroken(headers)
	switch {
	case !broken:
		return nil
	case missing:
		return fmt.Errorf("acemq: a %q message requires the header %q", routingKey, r.Name)
	}
	return &HeaderTypeError{RoutingKey: routingKey, Header: r.Name, Type: r.Type, Value: headers[r.Name]}
}

// consumeReason is the dead-letter reason of a delivery breaking rs.
func (rs headerRules) consumeReason(headers map[string]any) (string, bool) {
	r, missing, broken := rs.firstBroken(headers)
	switch {
	case !broken:
		return "", false
	case missing:
		return fmt.Sprintf("the message lacks the required header %q", r.Name), true
	}
	return fmt.Sprintf("the message's header %q must be %s; it is %s",
		r.Name, withArticle(string(r.Type)), describeValue(r.Type, headers[r.Name])), true
}

// known reports whether t is "" or one of the declared header types.
func (t HeaderValueType) known() bool {
	switch t {
	case "", StringHeader, IntHeader, LongHeader, BooleanHeader, DoubleHeader:
		return true
	}
	return false
}

// accepts reports whether v is a value of type t (see the constants).
func (t HeaderValueType) accepts(v any) bool {
	switch t {
	case StringHeader:
		return isString(v)
	case BooleanHeader:
		_, ok := v.(bool)
		return ok
	case DoubleHeader:
		return isFloat(v)
	case IntHeader, LongHeader:
		return t.fits(v)
	}
	return true
}

// fits reports whether v is an integer within t's range.
func (t HeaderValueType) fits(v any) bool {
	n, integer, in64 := headerInteger(v)
	if t == LongHeader {
		return integer && in64
	}
	return integer && in64 && n >= math.MinInt32 && n <= math.MaxInt32
}

func isString(v any) bool {
	switch v.(type) {
	case string, []byte:
		return true
	}
	return false
}

func isFloat(v any) bool {
	switch v.(type) {
	case float32, float64:
		return true
	}
	return false
}

// headerInteger reads an integer of any width: its value, whether v is an
// integer at all, and whether the value fits 64 signed bits.
func headerInteger(v any) (n int64, integer, in64 bool) {
	switch x := v.(type) {
	case int:
		return int64(x), true, true
	case int8:
		return int64(x), true, true
	case int16:
		return int64(x), true, true
	case int32:
		return int64(x), true, true
	case int64:
		return x, true, true
	}
	return headerUnsigned(v)
}

func headerUnsigned(v any) (n int64, integer, in64 bool) {
	var u uint64
	switch x := v.(type) {
	case uint:
		u = uint64(x)
	case uint8:
		u = uint64(x)
	case uint16:
		u = uint64(x)
	case uint32:
		u = uint64(x)
	case uint64:
		u = x
	default:
		return 0, false, false
	}
	return int64(u), true, u <= math.MaxInt64
}

// describeValue names what a header carried that t refused: its Go type,
// and, for an integer out of t's range, the value.
func describeValue(t HeaderValueType, v any) string {
	if v == nil {
		return "nil"
	}
	name := fmt.Sprintf("%T", v)
	if _, ok := v.([]byte); ok {
		name = "[]byte"
	}
	if _, integer, _ := headerInteger(v); integer && (t == IntHeader || t == LongHeader) {
		return fmt.Sprintf("%s out of %s range (%v)", withArticle(name), withArticle(string(t))+"'s", v)
	}
	return withArticle(name)
}

// withArticle puts "a" or "an" before a type name.
func withArticle(name string) string {
	if name != "" && strings.ContainsAny(name[:1], "aeio") {
		return "an " + name
	}
	return "a " + name
}
