package avro

import (
	"bytes"
	"encoding/base64"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

// FuzzConfluentFrame feeds arbitrary bodies to the frame reader and to a
// registered codec: neither may panic, every decode failure must be fatal
// (the registry here is in memory, so nothing is transient), and a frame that
// splits must reassemble to the same bytes.
func FuzzConfluentFrame(f *testing.F) {
	for _, seed := range []string{"AAAAAAEGQS0xCGFjbWW0QgZHQlAB", "AAAAAAcGby0xtEIIYWNtZQ==", "AAAAAGUGby0xxBM=", "BkEtMQhhY21ltEIGR0JQAQ==", "", "AA==", "AAAAAAE="} {
		b, _ := base64.StdEncoding.DecodeString(seed)
		f.Add(b)
	}
	reg := NewMemoryRegistry()
	codec := must[*Codec](f)(Registered(reg, "orders", orderV2, ReaderSchema(orderV2)))
	if _, err := must[*Codec](f)(Registered(reg, "orders", orderV1)).Encode(orderV1Go{}); err != nil { // registers id 1
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		if id, payload, err := splitFrame(body); err == nil {
			if !bytes.Equal(appendFrame(nil, id, payload), body) {
				t.Fatalf("frame % x does not reassemble", body)
			}
		} else if !acemq.IsFatal(err) {
			t.Fatalf("non-fatal frame error %v", err)
		}
		var out map[string]any
		if err := codec.Decode(body, &out); err != nil && !acemq.IsFatal(err) {
			t.Fatalf("non-fatal decode error %v", err)
		}
	})
}
