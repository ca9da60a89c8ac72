package acemq

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
)

// appendOrder writes its JSON itself, as a generated record does; it
// counts its calls so a test sees the codec took that path.
type appendOrder struct {
	OrderID string  `json:"orderId"`
	Ratio   float64 `json:"ratio"`
}

var appendCalls, unmarshalCalls int

func (o appendOrder) AppendJSON(b []byte) ([]byte, error) {
	appendCalls++
	if math.IsNaN(o.Ratio) {
		return nil, errors.New("jsonimpl: a value encoding/json refuses")
	}
	b = append(b, `{"orderId":`...)
	q, _ := json.Marshal(o.OrderID)
	b = append(append(b, q...), `,"ratio":`...)
	r, _ := json.Marshal(o.Ratio)
	return append(append(b, r...), '}'), nil
}

func (o *appendOrder) UnmarshalAcemqJSON(data []byte) error {
	unmarshalCalls++
	type plain appendOrder
	return json.Unmarshal(data, (*plain)(o))
}

func TestJSONCodecEncodesAGeneratedPayloadThroughAppendJSON(t *testing.T) {
	appendCalls = 0
	body, err := JSONCodec{}.Encode(appendOrder{OrderID: "o-1", Ratio: 0.5})
	if err != nil || string(body) != `{"orderId":"o-1","ratio":0.5}` || appendCalls != 1 {
		t.Fatalf("Encode = %s, %v after %d AppendJSON calls", body, err, appendCalls)
	}
	again, _ := JSONCodec{}.Encode(appendOrder{OrderID: "o-2"})
	if string(body) != `{"orderId":"o-1","ratio":0.5}` || string(again) != `{"orderId":"o-2","ratio":0}` {
		t.Fatalf("the scratch buffer leaked into a returned body: %s, %s", body, again)
	}
}

func TestJSONCodecReportsEncodingJSONsErrorWhenAppendJSONFails(t *testing.T) {
	_, err := JSONCodec{}.Encode(appendOrder{Ratio: math.NaN()})
	var unsupported *json.UnsupportedValueError
	if !errors.As(err, &unsupported) {
		t.Fatalf("Encode(NaN) = %v, want encoding/json's UnsupportedValueError", err)
	}
}

func TestJSONCodecWritesANilGeneratedPointerAsNull(t *testing.T) {
	body, err := JSONCodec{}.Encode((*appendOrder)(nil))
	if err != nil || string(body) != "null" {
		t.Fatalf("Encode(nil pointer) = %s, %v", body, err)
	}
}

func TestJSONCodecDecodesAGeneratedPayloadThroughUnmarshalAcemqJSON(t *testing.T) {
	unmarshalCalls = 0
	var o appendOrder
	if err := (JSONCodec{}).Decode([]byte(`{"orderId":"o-1","ratio":2}`), &o); err != nil || o.OrderID != "o-1" || unmarshalCalls != 1 {
		t.Fatalf("Decode = %+v, %v after %d UnmarshalAcemqJSON calls", o, err, unmarshalCalls)
	}
}

func TestJSONCodecChecksLimitsBeforeAGeneratedDecoderRuns(t *testing.T) {
	unmarshalCalls = 0
	deep := `{"orderId":` + strings.Repeat("[", 200) + strings.Repeat("]", 200) + `}`
	var o appendOrder
	err := JSONCodec{}.Decode([]byte(deep), &o)
	if err == nil || !strings.Contains(err.Error(), "nesting deeper than 100") || unmarshalCalls != 0 {
		t.Fatalf("Decode(200 deep) = %v after %d UnmarshalAcemqJSON calls; want the depth limit first", err, unmarshalCalls)
	}
}
