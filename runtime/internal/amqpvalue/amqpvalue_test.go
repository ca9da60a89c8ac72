package amqpvalue

import (
	"math"
	"reflect"
	"strings"
	"testing"
	"time"
)

// table stands for a transport's own table type, such as amqp091.Table.
type table map[string]any

func TestMemoryNamedTablesAndListsTravelAsPlainOnes(t *testing.T) {
	got, err := Rules{AsReceived: true}.Table(map[string]any{"t": table{"n": 1}, "l": []any{table{"m": uint(2)}}})
	want := map[string]any{"t": map[string]any{"n": int32(1)}, "l": []any{map[string]any{"m": int64(2)}}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("Table = %#v, %v; want %#v", got, err, want)
	}
}

func TestAsSentAnIntThatFitsStaysAnIntAndATimeKeepsItsFraction(t *testing.T) {
	at := time.Unix(10, 5)
	got, err := Rules{}.Table(map[string]any{"n": 7, "big": 5_000_000_000, "at": at})
	want := map[string]any{"n": 7, "big": int64(5_000_000_000), "at": at}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("Table = %#v, %v; want %#v", got, err, want)
	}
}

func TestWrapWrapsEveryNestedTableAndKeepKeepsTheClientsOwnValues(t *testing.T) {
	type decimal struct{ scale uint8 }
	r := Rules{
		Wrap: func(m map[string]any) any { return table(m) },
		Keep: func(v any) bool { _, ok := v.(decimal); return ok },
	}
	got, err := r.Table(map[string]any{"t": map[string]any{"d": decimal{2}}, "l": []any{table{}}})
	want := map[string]any{"t": table{"d": decimal{2}}, "l": []any{table{}}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("Table = %#v, %v; want %#v", got, err, want)
	}
}

func TestARefusalNamesEveryEntryOnTheWayWithTheRulesWord(t *testing.T) {
	cases := map[string]Rules{`header "a": header "b": a struct {} cannot travel in an AMQP table`: {},
		`header or argument "a": header or argument "b": a struct {} cannot travel in an AMQP table`: {Entry: "header or argument"}}
	for want, r := range cases {
		_, err := r.Table(map[string]any{"a": map[string]any{"b": struct{}{}}})
		if err == nil || err.Error() != want {
			t.Errorf("err = %v, want %s", err, want)
		}
	}
	_, err := Rules{}.Value(uint64(math.MaxUint64))
	if err == nil || !strings.Contains(err.Error(), "does not fit the signed 64 bits AMQP carries") {
		t.Errorf("uint64 max: %v, want a refusal", err)
	}
}

func TestAnExpirationIsWholeMillisecondsFromZeroToMaxInt32(t *testing.T) {
	for e, valid := range map[string]bool{"": true, "0": true, "60000": true, "2147483647": true,
		"2147483648": false, "-1": false, "1.5": false, "abc": false, " 1": false} {
		if got := ValidExpiration(e); got != valid {
			t.Errorf("ValidExpiration(%q) = %v, want %v", e, got, valid)
		}
	}
	if ms, ok := ParseExpiration("250"); !ok || ms != 250 {
		t.Errorf("ParseExpiration(250) = %d, %v", ms, ok)
	}
	for _, e := range []string{"", "x"} {
		if _, ok := ParseExpiration(e); ok {
			t.Errorf("ParseExpiration(%q) reported a TTL", e)
		}
	}
}

func TestConvertedIsTheTableItselfWhenNothingChangesAndATableOtherwise(t *testing.T) {
	final := map[string]any{"s": "x", "n": int64(1), "b": []byte("y"), "f": 1.5, "t": true}
	got, err := Rules{}.Converted(final)
	if err != nil || reflect.ValueOf(got).UnsafePointer() != reflect.ValueOf(final).UnsafePointer() {
		t.Errorf("Converted(final) = %v, %v; want the same map", got, err)
	}
	if n := testing.AllocsPerRun(100, func() { _, _ = Rules{}.Converted(final) }); n != 0 {
		t.Errorf("Converted of a final table allocates %v times, want 0", n)
	}
	mixed := map[string]any{"s": "x", "i": 7}
	got, err = Rules{AsReceived: true}.Converted(mixed)
	if err != nil || got["i"] != int32(7) || mixed["i"] != 7 {
		t.Errorf("Converted(mixed) = %v, %v; want a converted copy, mixed untouched (%v)", got, err, mixed)
	}
	if _, err := (Rules{}).Converted(map[string]any{"c": make(chan int)}); err == nil || !strings.Contains(err.Error(), `header "c"`) {
		t.Errorf("Converted of a channel = %v, want the entry named", err)
	}
}
