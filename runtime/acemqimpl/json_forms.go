package acemqimpl

import (
	"encoding/json"
	"fmt"
	"math/big"
	"time"
)

// JSONForm is how a Go value of type T is written and read as JSON when the
// contract's form differs from encoding/json's: a time-* unit, a decimal, or
// an optional, array or map of one. Generated code builds forms with
// JSONMillisForm, JSONMicrosForm, JSONDecimalForm, JSONOptional, JSONArray and
// JSONMap and binds a field to one with Bind. The zero JSONForm is not
// usable. A JSONForm holds no state and is safe for concurrent use.
type JSONForm[T any] struct {
	write func(T) ([]byte, error)
	read  func([]byte, *T) error
}

// Bind returns p's value in this form, for a shadow struct field that
// encoding/json writes from and reads into *p.
func (f JSONForm[T]) Bind(p *T) JSONValue[T] { return JSONValue[T]{p: p, form: f} }

// JSONValue is a value bound to its JSON form: encoding/json writes and reads
// the value it points to through the form. Build one with JSONForm.Bind; the
// zero JSONValue is not usable. It is as safe for concurrent use as the value
// it points to.
type JSONValue[T any] struct {
	p    *T
	form JSONForm[T]
}

// MarshalJSON writes the bound value in its form.
func (v JSONValue[T]) MarshalJSON() ([]byte, error) { return v.form.write(*v.p) }

// UnmarshalJSON reads data into the bound value.
func (v JSONValue[T]) UnmarshalJSON(data []byte) error { return v.form.read(data, v.p) }

// JSONMillisForm is the form of a time-millis field: integer milliseconds.
func JSONMillisForm() JSONForm[time.Duration] {
	return JSONForm[time.Duration]{
		write: func(d time.Duration) ([]byte, error) { return JSONMillis(d).MarshalJSON() },
		read:  func(b []byte, d *time.Duration) error { return (*JSONMillis)(d).UnmarshalJSON(b) },
	}
}

// JSONMicrosForm is the form of a time-micros field: integer microseconds.
func JSONMicrosForm() JSONForm[time.Duration] {
	return JSONForm[time.Duration]{
		write: func(d time.Duration) ([]byte, error) { return JSONMicros(d).MarshalJSON() },
		read:  func(b []byte, d *time.Duration) error { return (*JSONMicros)(d).UnmarshalJSON(b) },
	}
}

// JSONDecimalForm is the form of a decimal(precision, scale) field: a string
// with exactly scale digits after the point, as JSONDecimal writes and reads.
func JSONDecimalForm(precision, scale int) JSONForm[*big.Rat] {
	return JSONForm[*big.Rat]{
		write: func(r *big.Rat) ([]byte, error) {
			return JSONDecimal{Rat: r, Precision: precision, Scale: scale}.MarshalJSON()
		},
		read: func(b []byte, r **big.Rat) error {
			d := JSONDecimal{Precision: precision, Scale: scale}
			if err := d.UnmarshalJSON(b); err != nil {
				return err
			}
			*r = d.Rat
			return nil
		},
	}
}

// JSONOptional is the form of an optional elem: nil is null, anything else
// elem's form.
func JSONOptional[T any](elem JSONForm[T]) JSONForm[*T] {
	return JSONForm[*T]{
		write: func(p *T) ([]byte, error) {
			if p == nil {
				return []byte("null"), nil
			}
			return elem.write(*p)
		},
		read: func(b []byte, p **T) error {
			if isNull(b) {
				*p = nil
				return nil
			}
			v := new(T)
			if err := elem.read(b, v); err != nil {
				return err
			}
			*p = v
			return nil
		},
	}
}

// JSONArray is the form of an array of elem: a nil slice is null, as
// encoding/json writes it.
func JSONArray[T any](elem JSONForm[T]) JSONForm[[]T] {
	return JSONForm[[]T]{write: elem.writeArray, read: elem.readArray}
}

func (f JSONForm[T]) writeArray(s []T) ([]byte, error) {
	if s == nil {
		return []byte("null"), nil
	}
	out := []byte{'['}
	for i, v := range s {
		b, err := f.write(v)
		if err != nil {
			return nil, err
		}
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, b...)
	}
	return append(out, ']'), nil
}

func (f JSONForm[T]) readArray(b []byte, s *[]T) error {
	var raws []json.RawMessage
	if err := json.Unmarshal(b, &raws); err != nil {
		return fmt.Errorf("acemq: an array field is a JSON array: %w", err)
	}
	if raws == nil {
		*s = nil
		return nil
	}
	out := make([]T, len(raws))
	for i, raw := range raws {
		if err := f.read(raw, &out[i]); err != nil {
			return err
		}
	}
	*s = out
	return nil
}

// JSONMap is the form of a map of elem: a nil map is null, keys are sorted
// as encoding/json sorts them.
func JSONMap[T any](elem JSONForm[T]) JSONForm[map[string]T] {
	return JSONForm[map[string]T]{write: elem.writeMap, read: elem.readMap}
}

func (f JSONForm[T]) writeMap(m map[string]T) ([]byte, error) {
	if m == nil {
		return []byte("null"), nil
	}
	raws := make(map[string]json.RawMessage, len(m))
	for k, v := range m {
		b, err := f.write(v)
		if err != nil {
			return nil, err
		}
		raws[k] = b
	}
	return json.Marshal(raws)
}

func (f JSONForm[T]) readMap(b []byte, m *map[string]T) error {
	var raws map[string]json.RawMessage
	if err := json.Unmarshal(b, &raws); err != nil {
		return fmt.Errorf("acemq: a map field is a JSON object: %w", err)
	}
	if raws == nil {
		*m = nil
		return nil
	}
	out := make(map[string]T, len(raws))
	for k, raw := range raws {
		var v T
		if err := f.read(raw, &v); err != nil {
			return err
		}
		out[k] = v
	}
	*m = out
	return nil
}
