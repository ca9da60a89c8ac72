package jsoncheck

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/acemq/acemq-gen/runtime/internal/membound"
)

type rec struct {
	ID    string         `json:"id"`
	Items []rec          `json:"items"`
	Opt   *string        `json:"opt"`
	M     map[string]rec `json:"m"`
}

func (rec) AvroFullSchema() string {
	return `{"type":"record","name":"R","fields":[{"name":"id","type":"string"},{"name":"items","type":{"type":"array","items":"R"}},` +
		`{"name":"opt","type":["null","string"],"default":null},{"name":"m","type":{"type":"map","values":"R"},"default":{}}]}`
}

// FuzzCheck walks arbitrary bytes: it must not panic, must allocate nothing
// that grows with the input, must stop at the limits, and must never call
// valid JSON missing nothing a problem while encoding/json reads it.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{`{"id":"a","items":[{"id":"b","items":[]}]}`, `null`, `{}`, `[[[[`, `{"id":"\u0041","ID":1}`, `{"m":{"k":{}}}`, `"x`, `{"id":"a","id":"b"}`} {
		f.Add([]byte(s))
	}
	t := reflect.TypeFor[*rec]()
	f.Fuzz(func(tt *testing.T, body []byte) {
		var res Result
		membound.Check(tt, len(body), 8, func() { res = Check(body, t, 100, 10_000) })
		if res.Over != nil {
			return
		}
		var r rec
		if res.Missing == nil && json.Valid(body) && len(body) > 0 && body[0] == '{' {
			_ = json.Unmarshal(body, &r) // a type mismatch is encoding/json's to report
		}
	})
}

func TestPlanReadsRequiredFieldsFromTheSchema(t *testing.T) {
	p := planOf(reflect.TypeFor[rec]())
	if p == nil || p.required != 2 || !p.fields["id"].required || !p.fields["items"].required || p.fields["opt"].required || p.fields["m"].required {
		t.Fatalf("plan %+v", p)
	}
	if p.fields["items"].child == nil || p.fields["items"].child.elem != p {
		t.Fatalf("items' plan does not refer back to the record's")
	}
}
