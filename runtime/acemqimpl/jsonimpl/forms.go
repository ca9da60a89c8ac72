package jsonimpl

import (
	"encoding"
	"encoding/base64"
	"encoding/json"
	"reflect"
	"strconv"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemqimpl"
)

// Form is how a value of Go type T is written and read: Enc appends it to a
// Writer, Dec reads it from a Reader. The leaf forms are variables and
// functions of this package; Optional, Array and Map compose them. A Form
// holds no state and is safe for concurrent use.
type Form[T any] struct {
	Enc func(b []byte, v T) ([]byte, error)
	Dec func(r Reader, p *T) Reader
}

// The forms of the contract's primitives: string and uuid, boolean, int,
// long, float, double, bytes (base64) and date and timestamp-* (RFC 3339).
var (
	String  = Form[string]{Enc: encString[string], Dec: decString[string]}
	Bool    = Form[bool]{Enc: encBool, Dec: decBool}
	Int32   = Form[int32]{Enc: encInt[int32], Dec: decInt[int32]}
	Int64   = Form[int64]{Enc: encInt[int64], Dec: decInt[int64]}
	Float32 = Form[float32]{Enc: encFloat32, Dec: decFloat[float32]}
	Float64 = Form[float64]{Enc: encFloat64, Dec: decFloat[float64]}
	Bytes   = Form[[]byte]{Enc: encBytes, Dec: decReflect[[]byte]}
	Time    = Form[time.Time]{Enc: encTime, Dec: decTime}
)

// Enum is the form of an enum: its symbol as a JSON string.
func Enum[T ~string]() Form[T] { return Form[T]{Enc: encString[T], Dec: decString[T]} }

// Record is the form of a generated record: its AppendJSON and
// UnmarshalAcemqJSON methods.
func Record[T Appender, P interface {
	*T
	Unmarshaler
}]() Form[T] {
	return Form[T]{Enc: encRecord[T], Dec: decRecord[T, P]}
}

// Nested is the form of a record of the generated package itself: its
// AppendJSON, and its field reader called on the enclosing Reader, without
// reading the nested object twice. required are its fields that must be
// present (see Decode).
func Nested[T Appender](fields Fields[T], required ...int) Form[T] {
	return Form[T]{Enc: encRecord[T], Dec: func(r Reader, p *T) Reader { return decNested(r, p, fields, required) }}
}

// Text is the form of a type encoding/json writes through MarshalText (a
// fixed): its text as a JSON string.
func Text[T encoding.TextMarshaler]() Form[T] {
	return Form[T]{Enc: encText[T], Dec: decReflect[T]}
}

// Reflect is the form of a type the generator knows nothing of (a bound Go
// type): encoding/json both ways.
func Reflect[T any]() Form[T] { return Form[T]{Enc: encReflect[T], Dec: decReflect[T]} }

// Union is the form of a union field: a branch writes itself through its
// AppendJSON (see Branch), nil is null; dec reads the raw JSON of one.
func Union[T any](dec func(json.RawMessage) (T, error)) Form[T] {
	return Form[T]{Enc: encUnion[T], Dec: func(r Reader, p *T) Reader { return decUnion(r, p, dec) }}
}

// Branch appends a union branch's JSON, {"<branch>": v}: key is its
// opening, `{"<branch>":`.
func Branch[T any](b []byte, key string, v T, f Form[T]) ([]byte, error) {
	b, err := f.Enc(append(b, key...), v)
	if err != nil {
		return b, err
	}
	return append(b, '}'), nil
}

// Via is a contract JSON form (time-*, decimals and containers of them)
// as acemqimpl.JSONForm writes and reads it, for the reflective path too.
func Via[T any](f acemqimpl.JSONForm[T]) Form[T] {
	return Form[T]{
		Enc: func(b []byte, v T) ([]byte, error) { return encVia(b, v, f) },
		Dec: func(r Reader, p *T) Reader { return decVia(r, p, f) },
	}
}

// Optional, Array and Map compose forms for nested containers; a field
// that is one container of a leaf uses PutOpt, PutArray, PutMap instead.
func Optional[T any](f Form[T]) Form[*T] {
	return Form[*T]{
		Enc: func(b []byte, p *T) ([]byte, error) { return encOpt(b, p, f) },
		Dec: func(r Reader, p **T) Reader { return decOpt(r, p, f) },
	}
}

// Array is the form of an array of f.
func Array[T any](f Form[T]) Form[[]T] {
	return Form[[]T]{
		Enc: func(b []byte, s []T) ([]byte, error) { return encArray(b, s, f) },
		Dec: func(r Reader, p *[]T) Reader { return decArray(r, p, f) },
	}
}

// Map is the form of a map of f.
func Map[T any](f Form[T]) Form[map[string]T] {
	return Form[map[string]T]{
		Enc: func(b []byte, m map[string]T) ([]byte, error) { return encMap(b, m, f) },
		Dec: func(r Reader, p *map[string]T) Reader { return decMap(r, p, f) },
	}
}

func encString[T ~string](b []byte, v T) ([]byte, error) { return AppendString(b, string(v)), nil }

func encBool(b []byte, v bool) ([]byte, error) { return strconv.AppendBool(b, v), nil }

func encInt[T int32 | int64](b []byte, v T) ([]byte, error) {
	return strconv.AppendInt(b, int64(v), 10), nil
}

func encFloat32(b []byte, v float32) ([]byte, error) {
	if out, ok := AppendFloat(b, float64(v), 32); ok {
		return out, nil
	}
	return b, unsupported(v, 32)
}

func encFloat64(b []byte, v float64) ([]byte, error) {
	if out, ok := AppendFloat(b, v, 64); ok {
		return out, nil
	}
	return b, unsupported(v, 64)
}

// unsupported is the error encoding/json returns for a NaN or an infinity.
func unsupported[T float32 | float64](v T, bits int) error {
	return &json.UnsupportedValueError{Value: reflect.ValueOf(v), Str: strconv.FormatFloat(float64(v), 'g', -1, bits)}
}

func encBytes(b []byte, v []byte) ([]byte, error) {
	if v == nil {
		return append(b, "null"...), nil
	}
	return append(base64.StdEncoding.AppendEncode(append(b, '"'), v), '"'), nil
}

func encTime(b []byte, v time.Time) ([]byte, error) {
	out, err := v.AppendText(append(b, '"'))
	if err != nil {
		return b, err
	}
	return append(out, '"'), nil
}

// encUnion writes a union's branch through its AppendJSON; anything else
// (nil, a nil pointer to a branch) as encoding/json writes it.
func encUnion[T any](b []byte, v T) ([]byte, error) {
	if a, ok := any(v).(Appender); ok && !isNilPointer(a) {
		return a.AppendJSON(b)
	}
	return encReflect(b, v)
}

// isNilPointer reports whether v is a nil pointer, whose value methods
// cannot be called.
func isNilPointer(v any) bool {
	rv := reflect.ValueOf(v)
	return rv.Kind() == reflect.Pointer && rv.IsNil()
}

func encRecord[T Appender](b []byte, v T) ([]byte, error) { return v.AppendJSON(b) }

func encText[T encoding.TextMarshaler](b []byte, v T) ([]byte, error) {
	text, err := v.MarshalText()
	if err != nil {
		return b, err
	}
	return AppendString(b, text), nil
}

func encVia[T any](b []byte, v T, f acemqimpl.JSONForm[T]) ([]byte, error) {
	out, err := f.Bind(&v).MarshalJSON()
	return append(b, out...), err
}
