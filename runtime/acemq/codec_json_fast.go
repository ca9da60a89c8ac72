package acemq

import (
	"bytes"
	"encoding/json"
	"reflect"
	"sync"
)

// jsonAppender is a payload that writes its own JSON: acemq-gen generates
// AppendJSON for the records of a contract, writing byte for byte what
// encoding/json writes for the value, without reflection.
type jsonAppender interface {
	AppendJSON(b []byte) ([]byte, error)
}

// jsonUnmarshaler is a destination that reads its own JSON: acemq-gen
// generates UnmarshalAcemqJSON, reading what json.Unmarshal reads, with the
// same result.
type jsonUnmarshaler interface {
	UnmarshalAcemqJSON(data []byte) error
}

// jsonScratch holds the buffers generated encoders append into; Encode
// returns a copy of exactly the message's size.
var jsonScratch = sync.Pool{New: func() any { return new([]byte) }}

// maxScratch is the largest buffer kept for reuse: one huge message must not
// pin its memory.
const maxScratch = 64 << 10

// encodeJSON writes payload through its AppendJSON when it has one, else
// with encoding/json. An AppendJSON error (a NaN, an out-of-range time)
// is reported as encoding/json reports it, by encoding/json.
func encodeJSON(payload any) ([]byte, error) {
	a, ok := payload.(jsonAppender)
	if !ok || isNilPointer(payload) {
		return json.Marshal(payload)
	}
	buf := jsonScratch.Get().(*[]byte)
	defer putScratch(buf)
	b, err := a.AppendJSON((*buf)[:0])
	if err != nil {
		return json.Marshal(payload)
	}
	*buf = b
	return bytes.Clone(b), nil
}

func putScratch(buf *[]byte) {
	if cap(*buf) <= maxScratch {
		jsonScratch.Put(buf)
	}
}

// isNilPointer reports whether v is a nil pointer, which encoding/json
// writes as null and a value method cannot be called on.
func isNilPointer(v any) bool {
	rv := reflect.ValueOf(v)
	return rv.Kind() == reflect.Pointer && rv.IsNil()
}

// decodeJSON reads body into dst through its UnmarshalAcemqJSON when it has
// one, else with encoding/json.
func decodeJSON(body []byte, dst any) error {
	if u, ok := dst.(jsonUnmarshaler); ok && !isNilPointer(dst) {
		return u.UnmarshalAcemqJSON(body)
	}
	return json.Unmarshal(body, dst)
}
