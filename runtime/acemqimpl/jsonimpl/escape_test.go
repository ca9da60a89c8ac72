package jsonimpl

import (
	"encoding/json"
	"errors"
	"math"
	"testing"
)

func FuzzAppendStringMatchesEncodingJSON(f *testing.F) {
	for _, s := range []string{"", "plain", "<a href=\"x\">&</a>", "\u2028\u2029", "\x00\x01\b\f\n\r\t\x1f\x7f", "bad\xff\xfeutf8", "é☃😀", `\/"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := json.Marshal(s)
		if got := AppendString([]byte("x"), s); string(got) != "x"+string(want) {
			t.Fatalf("AppendString(%q) = %s, encoding/json writes %s", s, got[1:], want)
		}
		if got := AppendString(nil, []byte(s)); string(got) != string(want) {
			t.Fatalf("AppendString([]byte(%q)) = %s, encoding/json writes %s", s, got, want)
		}
	})
}

func FuzzAppendFloatMatchesEncodingJSON(f *testing.F) {
	for _, v := range []float64{0, -0.0, 1, 0.1, 1e20, 1e21, 1e-6, 1e-7, 123456.789, math.MaxFloat64, math.SmallestNonzeroFloat64, math.MaxFloat32, math.NaN(), math.Inf(1)} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v float64) {
		want64, err64 := json.Marshal(v)
		got64, ok64 := AppendFloat(nil, v, 64)
		if (err64 == nil) != ok64 || ok64 && string(got64) != string(want64) {
			t.Fatalf("AppendFloat(%v, 64) = %s %v, encoding/json writes %s %v", v, got64, ok64, want64, err64)
		}
		want32, err32 := json.Marshal(float32(v))
		got32, ok32 := AppendFloat(nil, float64(float32(v)), 32)
		if (err32 == nil) != ok32 || ok32 && string(got32) != string(want32) {
			t.Fatalf("AppendFloat(%v, 32) = %s %v, encoding/json writes %s %v", float32(v), got32, ok32, want32, err32)
		}
	})
}

func FuzzStringReadsAsEncodingJSONReadsIt(f *testing.F) {
	for _, s := range []string{`plain`, `\u00e9\ud83d\ude00`, `\ud800x`, `\ud800\u0041`, `\udc00\ud800`, `bad\xff`, `\"\\\/\b\f\n\r\t`, `\'`, `\u12`, "ctl\x01", `"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		body := []byte(`"` + s + `"`)
		var want string
		errWant := json.Unmarshal(body, &want)
		var got string
		r := decString(Reader{data: body}, &got)
		ok := !r.slow && r.end()
		if (errWant == nil) != ok || ok && got != want {
			t.Fatalf("%q: encoding/json reads %q (%v), the fast path %q (ok %v)", body, want, errWant, got, ok)
		}
	})
}

func FuzzNumbersReadAsEncodingJSONReadsThem(f *testing.F) {
	for _, s := range []string{"0", "-0", "01", "1.5", "1e3", "-", "2147483648", "-2147483648", "9223372036854775808", "1e400", "3.4e39", " 7 ", "null", "true", `"1"`, "1.", ".5", "-1E-2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sameAsEncodingJSON(t, s, Int32)
		sameAsEncodingJSON(t, s, Int64)
		sameAsEncodingJSON(t, s, Float32)
		sameAsEncodingJSON(t, s, Float64)
		sameAsEncodingJSON(t, s, Bool)
	})
}

// sameAsEncodingJSON reads s in form f and with encoding/json: the same
// outcome and, where both read it, the same value.
func sameAsEncodingJSON[T comparable](t *testing.T, s string, f Form[T]) {
	t.Helper()
	var want, got T
	errWant := json.Unmarshal([]byte(s), &want)
	r := f.Dec(Reader{data: []byte(s)}, &got)
	if ok := r.end(); (errWant == nil) != ok || ok && got != want {
		t.Fatalf("%T from %q: encoding/json reads %v (%v), the fast path %v (ok %v)", got, s, want, errWant, got, ok)
	}
}

func TestANaNIsEncodingJSONsUnsupportedValueError(t *testing.T) {
	for _, enc := range []func() ([]byte, error){
		func() ([]byte, error) { return Float64.Enc(nil, math.NaN()) },
		func() ([]byte, error) { return Float32.Enc(nil, float32(math.Inf(-1))) },
	} {
		_, err := enc()
		var unsupported *json.UnsupportedValueError
		if !errors.As(err, &unsupported) {
			t.Fatalf("err = %v, want encoding/json's *UnsupportedValueError", err)
		}
	}
	_, want := json.Marshal(math.NaN())
	if _, got := Float64.Enc(nil, math.NaN()); got.Error() != want.Error() {
		t.Fatalf("err = %q, encoding/json says %q", got, want)
	}
}
