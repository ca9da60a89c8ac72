package goldenjson_test

import (
	"bytes"
	"encoding/json"
	"math"
	"math/big"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// codec is what a generated record has: its JSON codec's two methods.
type codec[T any] interface {
	*T
	UnmarshalAcemqJSON(data []byte) error
}

type appender interface {
	AppendJSON(b []byte) ([]byte, error)
}

// checkBody decodes data with the generated decoder and with
// json.Unmarshal and requires the same outcome; what decodes is then
// encoded both ways and must be the same bytes.
func checkBody[T any, P codec[T]](t *testing.T, data []byte) {
	t.Helper()
	want, got := new(T), new(T)
	errWant, errGot := json.Unmarshal(data, want), P(got).UnmarshalAcemqJSON(data)
	if (errWant == nil) != (errGot == nil) {
		t.Fatalf("%T from %q: encoding/json says %v, the generated decoder %v", *want, data, errWant, errGot)
	}
	if errWant != nil {
		return
	}
	if !reflect.DeepEqual(want, got) {
		t.Fatalf("%T from %q: encoding/json reads %#v, the generated decoder %#v", *want, data, *want, *got)
	}
	checkValue(t, *want)
}

// checkValue encodes v with AppendJSON and with json.Marshal: the same
// bytes, or both an error; appending keeps what the buffer held.
func checkValue[T any](t testing.TB, v T) {
	t.Helper()
	want, errWant := json.Marshal(v)
	got, errGot := any(v).(appender).AppendJSON([]byte("prefix"))
	if (errWant == nil) != (errGot == nil) {
		t.Fatalf("%T %#v: encoding/json says %v, AppendJSON %v", v, v, errWant, errGot)
	}
	if errWant == nil && string(got) != "prefix"+string(want) {
		t.Fatalf("%T %#v:\nencoding/json %s\nAppendJSON    %s", v, v, want, bytes.TrimPrefix(got, []byte("prefix")))
	}
}

// variants are bodies around a canonical one that take encoding/json's
// less travelled paths: keys in another case, unknown and repeated keys,
// null and values of the wrong JSON type for each field, whitespace.
func variants(body []byte) [][]byte {
	out := [][]byte{body, []byte("null"), []byte("{}"), []byte("[]"), []byte(`{"a"`), []byte(" " + string(body) + " \n")}
	var indented bytes.Buffer
	if json.Indent(&indented, body, "", "\t") == nil {
		out = append(out, indented.Bytes())
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(body, &fields) != nil {
		return out
	}
	for k := range fields {
		for _, v := range []string{"null", `"x"`, "1.5", "7", "-0", "1e2", "[]", "{}", "true", `"2026-12-04T00:00:00Z"`, `{"int":1}`, `"\u00e9\ud83d\ude00<>"`} {
			out = append(out, withField(body, k, v))
		}
		out = append(out, bytes.Replace(body, []byte(`"`+k+`"`), []byte(`"`+strings.ToUpper(k)+`"`), 1))
		out = append(out, slices.Concat(bytes.TrimSuffix(body, []byte("}")), []byte(`,"`+k+`":`+string(fields[k])+"}")))
	}
	return append(out, append([]byte(`{"unknownKey":[1,{"a":null}],`), body[1:]...))
}

// withField is body with key's value replaced by value.
func withField(body []byte, key, value string) []byte {
	var fields map[string]json.RawMessage
	_ = json.Unmarshal(body, &fields)
	fields[key] = json.RawMessage(value)
	out, _ := json.Marshal(fields)
	return out
}

// seeds are the canonical JSON of random values of T, for the fuzzer and
// the equivalence test.
func seeds[T any](n int) [][]byte {
	rng := rand.New(rand.NewPCG(24, uint64(n)))
	var out [][]byte
	for range n {
		var v T
		fill(reflect.ValueOf(&v).Elem(), rng, 0)
		if body, err := json.Marshal(v); err == nil {
			out = append(out, body)
		}
	}
	return out
}

// fuzzType fuzzes T's generated decoder and encoder against encoding/json,
// from T's seeds and their variants; before, AppendJSON must write what
// encoding/json writes for 200 random values of T. A plain go test runs
// the seeds: the equivalence test of every golden type.
func fuzzType[T any, P codec[T]](f *testing.F, extra ...[]byte) {
	rng := rand.New(rand.NewPCG(4, 2))
	for range 200 {
		var v T
		fill(reflect.ValueOf(&v).Elem(), rng, 0)
		checkValue(f, v)
	}
	for _, body := range append(seeds[T](40), extra...) {
		for _, b := range variants(body) {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkBody[T, P](t, data) })
}

// The values fill picks from: the characters encoding/json escapes,
// invalid UTF-8, floats on both sides of its exponent cut-offs.
var (
	strs   = []string{"", "a", "Ada Lovelace", "<b>&amp;</b>", "line\u2028sep\u2029", "é☃😀", "tab\tnl\nnul\x00\x1f", "bad\xffutf8", `q"b\s/`}
	floats = []float64{0, 1, -1.5, 0.1, 1e21, 1e20, 1e-6, 1e-7, 123456789.125, math.MaxFloat32, math.SmallestNonzeroFloat64, -0.0000123}
	zones  = []*time.Location{time.UTC, time.FixedZone("", 5*3600+1800), time.FixedZone("", -8*3600)}
)

// fill sets v to a random value of its type.
func fill(v reflect.Value, rng *rand.Rand, depth int) {
	switch v.Interface().(type) {
	case time.Time:
		t := time.UnixMicro(rng.Int64N(4e15) - 1e15).In(zones[rng.IntN(len(zones))])
		v.Set(reflect.ValueOf(t))
		return
	case time.Duration:
		v.SetInt(rng.Int64N(1e13) - 5e12)
		return
	case *big.Rat:
		v.Set(reflect.ValueOf(big.NewRat(rng.Int64N(2e4)-1e4, 10)))
		return
	}
	fillKind(v, rng, depth)
}

func fillKind(v reflect.Value, rng *rand.Rand, depth int) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(strs[rng.IntN(len(strs))])
	case reflect.Bool:
		v.SetBool(rng.IntN(2) == 1)
	case reflect.Int32, reflect.Int64:
		v.SetInt(rng.Int64N(1<<31) - 1<<30)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(floats[rng.IntN(len(floats))])
	case reflect.Uint8:
		v.SetUint(uint64(rng.IntN(256)))
	case reflect.Array:
		for i := range v.Len() {
			fill(v.Index(i), rng, depth)
		}
	case reflect.Pointer:
		if rng.IntN(3) > 0 {
			v.Set(reflect.New(v.Type().Elem()))
			fill(v.Elem(), rng, depth+1)
		}
	case reflect.Slice, reflect.Map:
		fillContainer(v, rng, depth)
	case reflect.Struct:
		for i := range v.NumField() {
			fill(v.Field(i), rng, depth+1)
		}
	}
}

// fillContainer makes a nil, empty or short slice or map.
func fillContainer(v reflect.Value, rng *rand.Rand, depth int) {
	n := rng.IntN(4) - 1
	if n < 0 || depth > 4 {
		return
	}
	if v.Kind() == reflect.Slice {
		v.Set(reflect.MakeSlice(v.Type(), n, n))
		for i := range n {
			fill(v.Index(i), rng, depth+1)
		}
		return
	}
	v.Set(reflect.MakeMap(v.Type()))
	for range n {
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fill(k, rng, depth+1)
		fill(e, rng, depth+1)
		v.SetMapIndex(k, e)
	}
}

// splitBodies splits bodies written one after another, separated by |.
func splitBodies(bodies string) [][]byte {
	var out [][]byte
	for _, b := range strings.Split(bodies, "|") {
		out = append(out, []byte(b))
	}
	return out
}
