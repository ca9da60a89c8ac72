package acemq

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"time"
)

// maxExpiration is the largest per-message TTL RabbitMQ accepts, in milliseconds.
const maxExpiration = math.MaxInt32

// wireHeaders returns headers as a RabbitMQ consumer receives them: a Go int
// becomes an int32 when it fits and an int64 otherwise (as amqp091-go writes
// it), uint and uint64 become int64, []string becomes []any, a time loses
// everything below the second, and nested tables and lists are converted
// too. A value AMQP cannot carry is an error, as on the broker's transport.
func wireHeaders(h map[string]any) (map[string]any, error) {
	if h == nil {
		return nil, nil
	}
	out := make(map[string]any, len(h))
	for k, v := range h {
		w, err := wireValue(v)
		if err != nil {
			return nil, fmt.Errorf("header %q: %w", k, err)
		}
		out[k] = w
	}
	return out, nil
}

// wireValue converts one header value (see wireHeaders).
func wireValue(v any) (any, error) {
	switch x := v.(type) {
	case nil, bool, int8, int16, int32, int64, uint8, uint16, uint32, float32, float64, string, []byte:
		return x, nil
	case int:
		if x >= math.MinInt32 && x <= math.MaxInt32 {
			return int32(x), nil
		}
		return int64(x), nil
	case uint:
		return wireValue(uint64(x))
	case uint64:
		if x > math.MaxInt64 {
			return nil, fmt.Errorf("%d does not fit the signed 64 bits AMQP carries", x)
		}
		return int64(x), nil
	case time.Time:
		return time.Unix(x.Unix(), 0), nil
	case map[string]any:
		return wireHeaders(x)
	}
	return wireList(v)
}

// wireList converts a list value, refusing anything that is not one.
func wireList(v any) (any, error) {
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
			w, err := wireValue(e)
			if err != nil {
				return nil, err
			}
			out[i] = w
		}
		return out, nil
	}
	return wireNamed(v)
}

var (
	tableType = reflect.TypeFor[map[string]any]()
	listType  = reflect.TypeFor[[]any]()
)

// wireNamed converts a named table or list type (such as amqp091's Table)
// through its underlying type, refusing anything else.
func wireNamed(v any) (any, error) {
	rv := reflect.ValueOf(v)
	switch {
	case rv.IsValid() && rv.Type().ConvertibleTo(tableType) && rv.Kind() == reflect.Map:
		return wireHeaders(rv.Convert(tableType).Interface().(map[string]any))
	case rv.IsValid() && rv.Type().ConvertibleTo(listType) && rv.Kind() == reflect.Slice:
		return wireList(rv.Convert(listType).Interface())
	}
	return nil, fmt.Errorf("a %T cannot travel in an AMQP table", v)
}

// checkExpiration refuses a per-message TTL RabbitMQ would refuse: anything
// but a whole number of milliseconds from 0 to 2147483647.
func checkExpiration(e string) error {
	if e == "" {
		return nil
	}
	if n, err := strconv.ParseUint(e, 10, 32); err != nil || n > maxExpiration {
		return fmt.Errorf("406 PRECONDITION_FAILED - invalid expiration %q: not a whole number of milliseconds (0 to %d)", e, maxExpiration)
	}
	return nil
}
