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

// note is a union as acemq-gen generates one: a sealed interface whose
// branches wrap their values.
type note interface{ isNote() }

type (
	noteString struct{ Value string }
	noteInt    struct{ Value int32 }
	noteQty    struct{ Value unionQty }
)

func (noteString) isNote() {}
func (noteInt) isNote()    {}
func (noteQty) isNote()    {}

type unionQty struct {
	Amount int64 `avro:"amount"`
}

const unionQtySchema = `{"type":"record","name":"com.acme.Qty","fields":[{"name":"amount","type":"long"}]}`

// noteBranches lists note's branches, as generated code does.
type noteBranches struct{}

func (noteBranches) Union() *UnionOf[note] { return noteUnion }

var noteUnion = &UnionOf[note]{Name: "note", Field: "field note of Msg", Branches: []Branch[note]{
	Prim[note, noteString]("string"),
	Prim[note, noteInt]("int"),
	Named[note, noteQty]("com.acme.Qty", unionQtySchema),
}}

type unionMsg struct {
	Note *Union[note, noteBranches] `avro:"note"`
}

func TestAUnionTravelsThroughAvroAsEachOfItsBranchesAndNull(t *testing.T) {
	c := must[*Codec](t)(Of(`{"type":"record","name":"com.acme.Msg","fields":[{"name":"note","type":["null","string","int",` + unionQtySchema + `]}]}`))
	for _, in := range []note{nil, noteString{"hi"}, noteInt{-7}, noteQty{unionQty{Amount: 3}}} {
		body := must[[]byte](t)(c.Encode(unionMsg{Note: NewUnion[noteBranches](in)}))
		var out unionMsg
		if err := c.Decode(body, &out); err != nil {
			t.Fatalf("%#v: %v", in, err)
		}
		if got := out.Note.Value(); got != in {
			t.Fatalf("round trip of %#v gave %#v", in, got)
		}
	}
}

func TestAUnionRefusesAValueNoBranchReadsNamingTheField(t *testing.T) {
	var u Union[note, noteBranches]
	err := u.FromAny(map[string]any{"com.acme.Other": 1})
	if err == nil || err.Error() != `acemq: field note of Msg: no branch of note reads "com.acme.Other" (int)` {
		t.Fatalf("FromAny = %v", err)
	}
	if err := u.FromAny(true); err == nil || !strings.Contains(err.Error(), "(bool)") {
		t.Fatalf("FromAny(true) = %v", err)
	}
}
