package avro

import (
	"strings"
	"testing"
)

func TestUnionBranchNamesARecordBranchAndPassesAPrimitiveAlone(t *testing.T) {
	if name, v := UnionBranch(map[string]any{"com.acme.Box": map[string]any{"label": "x"}}); name != "com.acme.Box" || v == nil {
		t.Fatalf("UnionBranch = %q, %v", name, v)
	}
	if name, v := UnionBranch(int64(5)); name != "" || v != int64(5) {
		t.Fatalf("UnionBranch(5) = %q, %v", name, v)
	}
}

func TestIntoReadsAGenericValueIntoItsGoTypeAndParsesTheSchemaOnce(t *testing.T) {
	const schema = `{"type":"record","name":"com.acme.Qty","fields":[{"name":"amount","type":"long"}]}`
	type qty struct {
		Amount int64 `avro:"amount"`
	}
	for range 2 {
		var q qty
		if err := Into(map[string]any{"amount": int64(3)}, schema, &q); err != nil || q.Amount != 3 {
			t.Fatalf("Into = %+v, %v", q, err)
		}
	}
	first, _ := intoCodec(schema)
	second, _ := intoCodec(schema)
	if first != second {
		t.Fatal("Into built a second codec for the same schema")
	}
	if err := Into(1, "not a schema", &qty{}); err == nil {
		t.Fatal("a bad schema must be an error")
	}
}

func TestRegisteredOnNamesTheMissingOptionAndOfCodecKeepsANilInterface(t *testing.T) {
	if _, err := RegisteredOn(nil, "s", `"string"`); err == nil || !strings.Contains(err.Error(), "avro.WithRegistry") {
		t.Fatalf("err = %v, want it to name avro.WithRegistry", err)
	}
	c, err := OfCodec("not a schema")
	if err == nil || c != nil {
		t.Fatalf("OfCodec = %v, %v; want a nil codec and an error", c, err)
	}
}
