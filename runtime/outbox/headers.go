package outbox

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"time"
)

// Headers are stored as a jsonb object of typed values, so that what the
// relay publishes carries the same AMQP field types the publisher built:
//
//	{"x-acemq-attempt": {"long": 1}, "x-tenant": {"string": "acme"}}
//
// A value is an object of one member naming its Go type: string, bytes
// (base64), bool, int, int8, int16, int32, long (int64), uint8, uint16,
// uint32, uint64, float (float32), double (float64; NaN and ±Inf as strings),
// time (RFC 3339 with nanoseconds), array ([]any) or table (map[string]any),
// or null. A header of another type is refused when it is written.

// encodeHeaders renders h as the headers column.
func encodeHeaders(h map[string]any) ([]byte, error) {
	obj := make(map[string]any, len(h))
	for name, v := range h {
		tv, err := typedValue(v)
		if err != nil {
			return nil, fmt.Errorf("acemq: outbox: header %q: %w", name, err)
		}
		obj[name] = tv
	}
	return json.Marshal(obj)
}

// typedValue is v as a one-member object naming its type.
func typedValue(v any) (any, error) {
	switch x := v.(type) {
	case nil:
		return nil, nil
	case string:
		return map[string]any{"string": x}, nil
	case []byte:
		return map[string]any{"bytes": base64.StdEncoding.EncodeToString(x)}, nil
	case bool:
		return map[string]any{"bool": x}, nil
	case int:
		return map[string]any{"int": x}, nil
	case int8:
		return map[string]any{"int8": x}, nil
	case int16:
		return map[string]any{"int16": x}, nil
	case int32:
		return map[string]any{"int32": x}, nil
	case int64:
		return map[string]any{"long": x}, nil
	case uint8:
		return map[string]any{"uint8": x}, nil
	case uint16:
		return map[string]any{"uint16": x}, nil
	case uint32:
		return map[string]any{"uint32": x}, nil
	case uint64:
		return map[string]any{"uint64": strconv.FormatUint(x, 10)}, nil
	case float32:
		return map[string]any{"float": floatText(float64(x), 32)}, nil
	case float64:
		return map[string]any{"double": floatText(x, 64)}, nil
	case time.Time:
		return map[string]any{"time": x.Format(time.RFC3339Nano)}, nil
	}
	return composite(v)
}

// composite handles arrays and tables.
func composite(v any) (any, error) {
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			tv, err := typedValue(e)
			if err != nil {
				return nil, fmt.Errorf("element %d: %w", i, err)
			}
			out[i] = tv
		}
		return map[string]any{"array": out}, nil
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			tv, err := typedValue(e)
			if err != nil {
				return nil, fmt.Errorf("field %q: %w", k, err)
			}
			out[k] = tv
		}
		return map[string]any{"table": out}, nil
	}
	return nil, fmt.Errorf("a %T cannot be stored in the outbox (strings, []byte, booleans, integers, floats, time.Time, []any and map[string]any can)", v)
}

// floatText renders a float exactly, as a JSON number when it is finite.
func floatText(f float64, bits int) any {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return strconv.FormatFloat(f, 'g', -1, bits)
	}
	return json.Number(strconv.FormatFloat(f, 'g', -1, bits))
}

// decodeHeaders reads the headers column back: scanHeaders when it can,
// encoding/json otherwise.
func decodeHeaders(raw []byte) (map[string]any, error) {
	if h, ok := scanHeaders(raw); ok {
		return h, nil
	}
	return decodeHeadersJSON(raw)
}

// decodeHeadersJSON reads the headers column with encoding/json.
func decodeHeadersJSON(raw []byte) (map[string]any, error) {
	var obj map[string]json.RawMessage
	if err := unmarshal(raw, &obj); err != nil {
		return nil, fmt.Errorf("acemq: outbox: unreadable headers: %w", err)
	}
	h := make(map[string]any, len(obj))
	for name, r := range obj {
		v, err := fromTyped(r)
		if err != nil {
			return nil, fmt.Errorf("acemq: outbox: header %q: %w", name, err)
		}
		h[name] = v
	}
	return h, nil
}

// unmarshal decodes JSON keeping numbers as json.Number.
func unmarshal(raw []byte, dst any) error {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	return d.Decode(dst)
}

// fromTyped reads one typed value.
func fromTyped(raw json.RawMessage) (any, error) {
	if string(raw) == "null" {
		return nil, nil
	}
	var obj map[string]json.RawMessage
	if err := unmarshal(raw, &obj); err != nil || len(obj) != 1 {
		return nil, fmt.Errorf("%s is not a typed value", raw)
	}
	for kind, r := range obj {
		return scalar(kind, r)
	}
	return nil, nil
}

// scalar reads the value of kind (or an array or table) from r.
func scalar(kind string, r json.RawMessage) (any, error) {
	var s string
	var n json.Number
	switch kind {
	case "string":
		err := json.Unmarshal(r, &s)
		return s, err
	case "bytes":
		if err := json.Unmarshal(r, &s); err != nil {
			return nil, err
		}
		return base64.StdEncoding.DecodeString(s)
	case "bool":
		var b bool
		err := json.Unmarshal(r, &b)
		return b, err
	case "time":
		if err := json.Unmarshal(r, &s); err != nil {
			return nil, err
		}
		return time.Parse(time.RFC3339Nano, s)
	case "array", "table":
		return compositeFrom(kind, r)
	}
	if err := unmarshal(r, &n); err != nil {
		if err := json.Unmarshal(r, &s); err != nil {
			return nil, fmt.Errorf("%s is not a number", r)
		}
		n = json.Number(s)
	}
	return number(kind, string(n))
}

// number parses a number of kind.
func number(kind, s string) (any, error) {
	var bits int
	switch kind {
	case "int", "long":
		bits = 64
	case "int8", "uint8":
		bits = 8
	case "int16", "uint16":
		bits = 16
	case "int32", "uint32", "float":
		bits = 32
	case "uint64", "double":
		bits = 64
	default:
		return nil, fmt.Errorf("%q is not a header type", kind)
	}
	switch kind {
	case "float", "double":
		f, err := strconv.ParseFloat(s, bits)
		if kind == "float" {
			return float32(f), err
		}
		return f, err
	case "uint8", "uint16", "uint32", "uint64":
		u, err := strconv.ParseUint(s, 10, bits)
		return unsigned(kind, u), err
	}
	i, err := strconv.ParseInt(s, 10, bits)
	return signed(kind, i), err
}

func unsigned(kind string, u uint64) any {
	switch kind {
	case "uint8":
		return uint8(u)
	case "uint16":
		return uint16(u)
	case "uint32":
		return uint32(u)
	}
	return u
}

func signed(kind string, i int64) any {
	switch kind {
	case "int":
		return int(i)
	case "int8":
		return int8(i)
	case "int16":
		return int16(i)
	case "int32":
		return int32(i)
	}
	return i
}

// compositeFrom reads an array or a table.
func compositeFrom(kind string, r json.RawMessage) (any, error) {
	if kind == "array" {
		var elems []json.RawMessage
		if err := json.Unmarshal(r, &elems); err != nil {
			return nil, err
		}
		out := make([]any, len(elems))
		for i, e := range elems {
			v, err := fromTyped(e)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(r, &fields); err != nil {
		return nil, err
	}
	out := make(map[string]any, len(fields))
	for k, e := range fields {
		v, err := fromTyped(e)
		if err != nil {
			return nil, err
		}
		out[k] = v
	}
	return out, nil
}
