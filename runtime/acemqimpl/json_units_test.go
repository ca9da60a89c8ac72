package acemqimpl_test

import (
	"encoding/json"
	"errors"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemqimpl"
)

// unitsRecord is what a generated record with every affected field kind looks
// like, with the MarshalJSON/UnmarshalJSON pair the generator writes.
type unitsRecord struct {
	Name    string                      `json:"name"`
	Starts  time.Duration               `json:"starts"`
	Lasts   time.Duration               `json:"lasts"`
	Price   *big.Rat                    `json:"price"`
	Rate    **big.Rat                   `json:"rate"`
	Offset  *time.Duration              `json:"offset"`
	Laps    []time.Duration             `json:"laps"`
	Prices  map[string]*big.Rat         `json:"prices"`
	Nested  []map[string]*time.Duration `json:"nested"`
	Ignored time.Duration               `json:"-"`
}

func (m unitsRecord) MarshalJSON() ([]byte, error) { return json.Marshal(m.shadow()) }

func (m *unitsRecord) UnmarshalJSON(data []byte) error { return json.Unmarshal(data, m.shadow()) }

func (m *unitsRecord) shadow() any {
	type plain unitsRecord
	return &struct {
		*plain
		Starts acemqimpl.JSONValue[time.Duration]               `json:"starts"`
		Lasts  acemqimpl.JSONValue[time.Duration]               `json:"lasts"`
		Price  acemqimpl.JSONValue[*big.Rat]                    `json:"price"`
		Rate   acemqimpl.JSONValue[**big.Rat]                   `json:"rate"`
		Offset acemqimpl.JSONValue[*time.Duration]              `json:"offset"`
		Laps   acemqimpl.JSONValue[[]time.Duration]             `json:"laps"`
		Prices acemqimpl.JSONValue[map[string]*big.Rat]         `json:"prices"`
		Nested acemqimpl.JSONValue[[]map[string]*time.Duration] `json:"nested"`
	}{(*plain)(m),
		acemqimpl.JSONMillisForm().Bind(&m.Starts),
		acemqimpl.JSONMicrosForm().Bind(&m.Lasts),
		acemqimpl.JSONDecimalForm(12, 2).Bind(&m.Price),
		acemqimpl.JSONOptional(acemqimpl.JSONDecimalForm(9, 6)).Bind(&m.Rate),
		acemqimpl.JSONOptional(acemqimpl.JSONMicrosForm()).Bind(&m.Offset),
		acemqimpl.JSONArray(acemqimpl.JSONMillisForm()).Bind(&m.Laps),
		acemqimpl.JSONMap(acemqimpl.JSONDecimalForm(5, 1)).Bind(&m.Prices),
		acemqimpl.JSONArray(acemqimpl.JSONMap(acemqimpl.JSONOptional(acemqimpl.JSONMillisForm()))).Bind(&m.Nested)}
}

func filledRecord() unitsRecord {
	rate, offset := big.NewRat(1, 8), 7*time.Microsecond
	return unitsRecord{Name: "n", Starts: 1500 * time.Millisecond, Lasts: 250 * time.Microsecond,
		Price: big.NewRat(1234, 100), Rate: &rate, Offset: &offset,
		Laps: []time.Duration{time.Second, 2 * time.Millisecond}, Prices: map[string]*big.Rat{"b": big.NewRat(-5, 2), "a": nil},
		Nested: []map[string]*time.Duration{{"x": &offset, "y": nil}}}
}

const filledJSON = `{"name":"n","starts":1500,"lasts":250,"price":"12.34","rate":"0.125000","offset":7,` +
	`"laps":[1000,2],"prices":{"a":null,"b":"-2.5"},"nested":[{"x":0,"y":null}]}`

func TestJSONFormsWriteMillisMicrosIntegersAndDecimalStrings(t *testing.T) {
	b, err := json.Marshal(filledRecord())
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != filledJSON {
		t.Fatalf("got  %s\nwant %s", b, filledJSON)
	}
}

func TestJSONFormsRoundTripEveryFieldKind(t *testing.T) {
	in := filledRecord()
	b, err := json.Marshal(&in)
	if err != nil {
		t.Fatal(err)
	}
	var out unitsRecord
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	again, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	if string(again) != string(b) || out.Starts != in.Starts || out.Lasts != in.Lasts || out.Price.Cmp(in.Price) != 0 ||
		(*out.Rate).Cmp(*in.Rate) != 0 || *out.Offset != 7*time.Microsecond || out.Laps[1] != 2*time.Millisecond ||
		out.Prices["a"] != nil || out.Prices["b"].Cmp(big.NewRat(-5, 2)) != 0 || *out.Nested[0]["x"] != 0 {
		t.Fatalf("round trip gave %+v (%s)", out, again)
	}
}

func TestJSONFormsWriteNullForUnsetOptionalsSlicesMapsAndDecimals(t *testing.T) {
	b, err := json.Marshal(unitsRecord{})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"name":"","starts":0,"lasts":0,"price":null,"rate":null,"offset":null,"laps":null,"prices":null,"nested":null}`
	if string(b) != want {
		t.Fatalf("got  %s\nwant %s", b, want)
	}
}

func TestJSONFormsReadNullAsNilAndLeaveAbsentFieldsAlone(t *testing.T) {
	out := filledRecord()
	err := json.Unmarshal([]byte(`{"starts":null,"price":null,"rate":null,"offset":null,"laps":null,"prices":null}`), &out)
	if err != nil {
		t.Fatal(err)
	}
	if out.Starts != 1500*time.Millisecond || out.Price != nil || out.Rate != nil || out.Offset != nil ||
		out.Laps != nil || out.Prices != nil || out.Lasts != 250*time.Microsecond || len(out.Nested) != 1 {
		t.Fatalf("after nulls: %+v", out)
	}
}

func TestJSONDecimalReadsAnyDecimalSpellingThatFits(t *testing.T) {
	for text, want := range map[string]*big.Rat{
		`"12.34"`: big.NewRat(1234, 100), `"12.3"`: big.NewRat(123, 10), `"-0.5"`: big.NewRat(-1, 2),
		`"+7"`: big.NewRat(7, 1), `".25"`: big.NewRat(1, 4), `"1.5e2"`: big.NewRat(150, 1),
		`"1234567890.12"`: big.NewRat(123456789012, 100), `12.34`: big.NewRat(1234, 100), ` "3." `: big.NewRat(3, 1),
	} {
		d := acemqimpl.JSONDecimal{Precision: 12, Scale: 2}
		if err := json.Unmarshal([]byte(text), &d); err != nil {
			t.Errorf("%s: %v", text, err)
			continue
		}
		if d.Rat.Cmp(want) != 0 {
			t.Errorf("%s read as %s, want %s", text, d.Rat.RatString(), want.RatString())
		}
	}
}

func TestJSONDecimalRefusesStringsThatDoNotFitOrAreNotDecimals(t *testing.T) {
	for text, reason := range map[string]string{
		`"12.345"`:        "more than 2 digits after the point",
		`"12345678901.5"`: "more than 10 digits before the point",
		`"1e10"`:          "more than 10 digits before the point",
		`"617/50"`:        "is not one",
		`"12,34"`:         "is not one",
		`"0x10"`:          "is not one",
		`"1e99999"`:       "is not one",
		`""`:              "is not one",
		`true`:            "is not one",
		`["1"]`:           "is not one",
	} {
		d := acemqimpl.JSONDecimal{Precision: 12, Scale: 2}
		err := d.UnmarshalJSON([]byte(text))
		if err == nil || !strings.Contains(err.Error(), reason) || !strings.HasPrefix(err.Error(), "acemq: ") {
			t.Errorf("%s: got %v, want an error saying %q", text, err, reason)
		}
	}
}

func TestJSONDecimalWritesExactlyScaleDigitsRoundingHalvesAway(t *testing.T) {
	for _, c := range []struct {
		r         *big.Rat
		scale     int
		want      string
		precision int
	}{
		{big.NewRat(617, 50), 2, `"12.34"`, 12},
		{big.NewRat(12, 1), 2, `"12.00"`, 12},
		{big.NewRat(-1, 8), 2, `"-0.13"`, 4},
		{big.NewRat(1, 3), 0, `"0"`, 1},
		{new(big.Rat).SetFloat64(12.34), 2, `"12.34"`, 4},
	} {
		b, err := json.Marshal(acemqimpl.JSONDecimal{Rat: c.r, Precision: c.precision, Scale: c.scale})
		if err != nil || string(b) != c.want {
			t.Errorf("%s at scale %d: %s, %v; want %s", c.r.RatString(), c.scale, b, err, c.want)
		}
	}
}

func TestJSONDecimalRefusesToWriteTooManyDigitsBeforeThePoint(t *testing.T) {
	for _, r := range []*big.Rat{big.NewRat(100, 1), big.NewRat(-19999, 200)} { // 100, -99.995 → -100.00
		_, err := json.Marshal(acemqimpl.JSONDecimal{Rat: r, Precision: 4, Scale: 2})
		if err == nil || !strings.Contains(err.Error(), "does not fit decimal(4,2)") {
			t.Errorf("%s: got %v, want a refusal", r.RatString(), err)
		}
	}
}

func TestJSONMillisAndMicrosTruncateToTheirUnitAndReadIntegersOnly(t *testing.T) {
	b, _ := json.Marshal([]any{acemqimpl.JSONMillis(1999 * time.Microsecond), acemqimpl.JSONMicros(1999 * time.Nanosecond), acemqimpl.JSONMillis(-1500 * time.Microsecond)})
	if string(b) != `[1,1,-1]` {
		t.Fatalf("got %s", b)
	}
	var d acemqimpl.JSONMicros
	if err := json.Unmarshal([]byte(`-42`), &d); err != nil || time.Duration(d) != -42*time.Microsecond {
		t.Fatalf("read %v, %v", time.Duration(d), err)
	}
	for _, bad := range []string{`1.5`, `"15"`, `1e3`, `9223372036854775`, `true`} {
		var m acemqimpl.JSONMillis
		if err := m.UnmarshalJSON([]byte(bad)); err == nil || !strings.HasPrefix(err.Error(), "acemq: a time-millis value") {
			t.Errorf("%s: got %v, want a refusal", bad, err)
		}
	}
}

func TestJSONFormsRefusalThroughTheJSONCodecIsFatal(t *testing.T) {
	var out unitsRecord
	err := acemq.JSONCodec{}.Decode([]byte(`{"price":"1.234"}`), &out)
	if !acemq.IsFatal(err) || !strings.Contains(err.Error(), "does not fit decimal(12,2)") {
		t.Fatalf("got %v, want a fatal refusal naming decimal(12,2)", err)
	}
	err = acemq.JSONCodec{}.Decode([]byte(`{"laps":{"a":1}}`), &out)
	var fe *acemq.FatalError
	if !errors.As(err, &fe) || !strings.Contains(err.Error(), "an array field is a JSON array") {
		t.Fatalf("got %v, want a fatal refusal of a non-array", err)
	}
}

// plainRecord is unitsRecord without its JSON forms, for comparison.
type plainRecord unitsRecord

func BenchmarkJSONFormsMarshal(b *testing.B) {
	in := filledRecord()
	b.Run("forms", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := json.Marshal(in); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		p := plainRecord(in)
		for b.Loop() {
			if _, err := json.Marshal(p); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkJSONFormsUnmarshal(b *testing.B) {
	body := []byte(filledJSON)
	b.ReportAllocs()
	for b.Loop() {
		var out unitsRecord
		if err := json.Unmarshal(body, &out); err != nil {
			b.Fatal(err)
		}
	}
}

func TestJSONDecimalOfAMillionDigitsIsRefusedFast(t *testing.T) {
	for _, body := range []string{`"` + strings.Repeat("7", 1_000_000) + `"`, strings.Repeat("7", 1_000_000), `"0.` + strings.Repeat("1", 5000) + `"`} {
		start := time.Now()
		d := acemqimpl.JSONDecimal{Precision: 0}
		err := d.UnmarshalJSON([]byte(body))
		if err == nil || !strings.Contains(err.Error(), "is longer than 1024") || len(err.Error()) > 300 {
			t.Fatalf("a %d-byte decimal gave %.300v, want a short error that it is too long", len(body), err)
		}
		if took := time.Since(start); took > 100*time.Millisecond {
			t.Fatalf("refusing a %d-byte decimal took %v", len(body), took)
		}
	}
	d := acemqimpl.JSONDecimal{Precision: 38, Scale: 18}
	if err := d.UnmarshalJSON([]byte(`"12345678901234567890.123456789012345678"`)); err != nil {
		t.Fatalf("a decimal(38,18) at full precision: %v", err)
	}
}
