// Package headerval reads AMQP header values the way a family peer may
// send them: strings possibly as bytes, integers of any width, floats (JSON
// fixtures) or decimal strings.
package headerval

import "strconv"

// String reads header name of h, a string that may arrive as []byte.
func String(h map[string]any, name string) (string, bool) {
	switch v := h[name].(type) {
	case string:
		return v, true
	case []byte:
		return string(v), true
	}
	return "", false
}

// Millis reads header name of h, epoch milliseconds (or any integer) of any
// integer width, a float or a decimal string.
func Millis(h map[string]any, name string) (int64, bool) {
	switch v := h[name].(type) {
	case int64:
		return v, true
	case int32:
		return int64(v), true
	case int:
		return int64(v), true
	case uint32:
		return int64(v), true
	case uint64:
		return int64(v), true
	case float64:
		return int64(v), true
	}
	if s, ok := String(h, name); ok {
		n, err := strconv.ParseInt(s, 10, 64)
		return n, err == nil
	}
	return 0, false
}
