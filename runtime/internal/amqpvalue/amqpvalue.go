package amqpvalue

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"time"
)

// MaxExpiration is the largest per-message TTL RabbitMQ accepts, in milliseconds.
const MaxExpiration = math.MaxInt32

// Rules are one transport's way of applying the AMQP value rules to headers
// and arguments. The zero value converts to the form a client writes, names
// entries "header" in errors and wraps nothing. Rules are read-only once
// built: safe for concurrent use.
type Rules struct {
	// Entry names a table entry in errors: `Entry "key": reason`. Default "header".
	Entry string
	// AsReceived converts to the form a consumer reads back from RabbitMQ: a
	// Go int becomes int32 when it fits (as amqp091-go writes it) and a time
	// loses everything below the second. Otherwise an int that fits stays an
	// int and a time stays as it is, for the client library to write.
	AsReceived bool
	// Wrap turns every converted nested table into the transport's own table
	// type (amqp091-go's Table); nil leaves it a map[string]any.
	Wrap func(map[string]any) any
	// Keep reports a value the transport's client writes as it is although
	// these rules do not know it (amqp091-go's Decimal); nil keeps none.
	Keep func(any) bool
}

// Table returns headers as AMQP carries them: an int that does not fit 32
// bits becomes an int64 (see AsReceived for one that does), uint and uint64
// become int64, []string becomes []any, and nested tables and lists, named
// ones (such as amqp091-go's Table) included, are converted too. A value AMQP
// cannot carry is an error naming its entry. h is not modified; nil stays nil.
func (r Rules) Table(h map[string]any) (map[string]any, error) {
	if h == nil {
		return nil, nil
	}
	out := make(map[string]any, len(h))
	for k, v := range h {
		w, err := r.Value(v)
		if err != nil {
			return nil, fmt.Errorf("%s %q: %w", r.entry(), k, err)
		}
		out[k] = w
	}
	return out, nil
}

func (r Rules) entry() string {
	if r.Entry == "" {
		return "header"
	}
	return r.Entry
}

// Converted returns what Table returns for h, but h itself when every value
// already has the form Table would give it (unchanged), allocating nothing:
// a caller that keeps the result beyond the call that gave it h must copy it.
func (r Rules) Converted(h map[string]any) (map[string]any, error) {
	for _, v := range h {
		if !unchanged(v) {
			return r.Table(h)
		}
	}
	return h, nil
}

// unchanged reports whether v is a scalar every Rules carry as it is.
func unchanged(v any) bool {
	switch v.(type) {
	case nil, bool, int8, int16, int32, int64, uint8, uint16, uint32, float32, float64, string, []byte:
		return true
	}
	return false
}

// Value converts one header or argument value (see Table).
func (r Rules) Value(v any) (any, error) {
	if unchanged(v) {
		return v, nil
	}
	switch x := v.(type) {
	case int:
		return r.integer(x), nil
	case uint:
		return r.Value(uint64(x))
	case uint64:
		if x > math.MaxInt64 {
			return nil, fmt.Errorf("%d does not fit the signed 64 bits AMQP carries", x)
		}
		return int64(x), nil
	case time.Time:
		if r.AsReceived {
			return time.Unix(x.Unix(), 0), nil
		}
		return x, nil
	case map[string]any:
		return r.nested(x)
	}
	return r.list(v)
}

// integer keeps an int that fits 32 bits at 32 bits and sends a larger one as 64.
func (r Rules) integer(x int) any {
	switch {
	case x < math.MinInt32 || x > math.MaxInt32:
		return int64(x)
	case r.AsReceived:
		return int32(x)
	}
	return x
}

// nested converts a nested table and wraps it.
func (r Rules) nested(m map[string]any) (any, error) {
	t, err := r.Table(m)
	if err != nil || r.Wrap == nil {
		return t, err
	}
	return r.Wrap(t), nil
}

// list converts a list value, refusing anything that is not one.
func (r Rules) list(v any) (any, error) {
	switch x := v.(type) {
	case []string:
		out := make([]any, len(x))
		for i, s := range x {
			out[i] = s
		}
		return out, nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			w, err := r.Value(e)
			if err != nil {
				return nil, err
			}
			out[i] = w
		}
		return out, nil
	}
	return r.named(v)
}

var (
	tableType = reflect.TypeFor[map[string]any]()
	listType  = reflect.TypeFor[[]any]()
)

// named converts a named table or list type (such as amqp091's Table)
// through its underlying type, and passes what Keep keeps; it refuses
// anything else.
func (r Rules) named(v any) (any, error) {
	rv := reflect.ValueOf(v)
	switch {
	case rv.IsValid() && rv.Type().ConvertibleTo(tableType) && rv.Kind() == reflect.Map:
		return r.nested(rv.Convert(tableType).Interface().(map[string]any))
	case rv.IsValid() && rv.Type().ConvertibleTo(listType) && rv.Kind() == reflect.Slice:
		return r.list(rv.Convert(listType).Interface())
	case r.Keep != nil && r.Keep(v):
		return v, nil
	}
	return nil, fmt.Errorf("a %T cannot travel in an AMQP table", v)
}

// ValidExpiration reports whether RabbitMQ takes e as a per-message TTL: ""
// (none) or a whole number of milliseconds from 0 to MaxExpiration.
func ValidExpiration(e string) bool {
	if e == "" {
		return true
	}
	n, err := strconv.ParseUint(e, 10, 32)
	return err == nil && n <= MaxExpiration
}

// ParseExpiration reads a per-message TTL in milliseconds; ok is false for
// "" (no TTL) and for one ValidExpiration refuses.
func ParseExpiration(e string) (ms int64, ok bool) {
	if e == "" || !ValidExpiration(e) {
		return 0, false
	}
	n, err := strconv.ParseInt(e, 10, 64)
	return n, err == nil
}
