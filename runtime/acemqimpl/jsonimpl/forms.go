package jsonimpl

import (
	"encoding"
	"encoding/base64"
	"encoding/json"
	"strconv"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemqimpl"
)

// Form is how a value of Go type T is written and read: Enc appends it to a
// Writer, Dec reads it from a Reader. The leaf forms are variables and
// functions of this package; Optional, Array and Map compose them. A Form
// holds no state and is safe for concurrent use.
type Form[T any] struct {
	Enc func(w *Writer, v T)
	Dec func(r *Reader, p *T)
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

// Text is the form of a type encoding/json writes through MarshalText (a
// fixed): its text as a JSON string.
func Text[T encoding.TextMarshaler]() Form[T] {
	return Form[T]{Enc: encText[T], Dec: decReflect[T]}
}

// Reflect is the form of a type the generator knows nothing of (a bound Go
// type): encoding/json both ways.
func Reflect[T any]() Form[T] { return Form[T]{Enc: encReflect[T], Dec: decReflect[T]} }

// Union is the form of a union field: encoding/json writes the branch
// through its MarshalJSON, dec reads the raw JSON of one.
func Union[T any](dec func(json.RawMessage) (T, error)) Form[T] {
	return Form[T]{Enc: encReflect[T], Dec: func(r *Reader, p *T) { decUnion(r, p, dec) }}
}

// Via is a contract JSON form (time-*, decimals and containers of them)
// as acemqimpl.JSONForm writes and reads it, for the reflective path too.
func Via[T any](f acemqimpl.JSONForm[T]) Form[T] {
	return Form[T]{
		Enc: func(w *Writer, v T) { encVia(w, v, f) },
		Dec: func(r *Reader, p *T) { decVia(r, p, f) },
	}
}

// Optional, Array and Map compose forms for nested containers; a field
// that is one container of a leaf uses PutOpt, PutArray, PutMap instead.
func Optional[T any](f Form[T]) Form[*T] {
	return Form[*T]{Enc: func(w *Writer, p *T) { encOpt(w, p, f) }, Dec: func(r *Reader, p **T) { decOpt(r, p, f) }}
}

// Array is the form of an array of f.
func Array[T any](f Form[T]) Form[[]T] {
	return Form[[]T]{Enc: func(w *Writer, s []T) { encArray(w, s, f) }, Dec: func(r *Reader, p *[]T) { decArray(r, p, f) }}
}

// Map is the form of a map of f.
func Map[T any](f Form[T]) Form[map[string]T] {
	return Form[map[string]T]{Enc: func(w *Writer, m map[string]T) { encMap(w, m, f) }, Dec: func(r *Reader, p *map[string]T) { decMap(r, p, f) }}
}

func encString[T ~string](w *Writer, v T) { w.B = AppendString(w.B, string(v)) }

func encBool(w *Writer, v bool) { w.B = strconv.AppendBool(w.B, v) }

func encInt[T int32 | int64](w *Writer, v T) { w.B = strconv.AppendInt(w.B, int64(v), 10) }

func encFloat32(w *Writer, v float32) { encFloat(w, float64(v), 32) }

func encFloat64(w *Writer, v float64) { encFloat(w, v, 64) }

func encFloat(w *Writer, v float64, bits int) {
	b, ok := AppendFloat(w.B, v, bits)
	if !ok {
		w.fail(errUnsupported)
		return
	}
	w.B = b
}

func encBytes(w *Writer, v []byte) {
	if v == nil {
		w.B = append(w.B, "null"...)
		return
	}
	w.B = append(base64.StdEncoding.AppendEncode(append(w.B, '"'), v), '"')
}

func encTime(w *Writer, v time.Time) {
	b, err := v.AppendText(append(w.B, '"'))
	if err != nil {
		w.fail(err)
		return
	}
	w.B = append(b, '"')
}

func encRecord[T Appender](w *Writer, v T) {
	b, err := v.AppendJSON(w.B)
	if err != nil {
		w.fail(err)
		return
	}
	w.B = b
}

func encText[T encoding.TextMarshaler](w *Writer, v T) {
	text, err := v.MarshalText()
	if err != nil {
		w.fail(err)
		return
	}
	w.B = AppendString(w.B, text)
}

func encVia[T any](w *Writer, v T, f acemqimpl.JSONForm[T]) {
	b, err := f.Bind(&v).MarshalJSON()
	if err != nil {
		w.fail(err)
		return
	}
	w.B = append(w.B, b...)
}
