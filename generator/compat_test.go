package generator

import (
	"strings"
	"testing"

	"github.com/hamba/avro/v2"
)

// explainSchemas runs the explainer on two record schemas, BASE and new, in
// direction dir, and returns its findings as "path: change" lines.
func explainSchemas(t *testing.T, base, next string, dir compatDir) []string {
	t.Helper()
	b := avro.MustParse(base)
	n := avro.MustParse(next)
	reader, writer := n, b
	if dir == compatForward {
		reader, writer = b, n
	}
	e := &compatExplainer{c: avro.NewSchemaCompatibility(), dir: dir}
	if e.c.Compatible(reader, writer) == nil {
		return nil
	}
	e.walk(reader, writer, nil)
	var out []string
	for _, f := range e.out {
		out = append(out, compatPath(f.path)+": "+f.change)
	}
	return out
}

// agreesWithTheRegistryWriter checks that judging the writer by its full
// schema, as compat does, gives the verdict the runtime gets when it resolves
// the writer's canonical schema (what the registry holds) onto the reader.
func agreesWithTheRegistryWriter(t *testing.T, base, next string, dir compatDir) {
	t.Helper()
	reader, writer := dir.order(avro.MustParse(base), avro.MustParse(next))
	canonical := avro.MustParse(writer.String())
	_, runtimeErr := avro.NewSchemaCompatibility().Resolve(reader, canonical)
	compatErr := avro.NewSchemaCompatibility().Compatible(reader, writer)
	if (runtimeErr == nil) != (compatErr == nil) {
		t.Fatalf("compat says %v, the runtime's resolution %v", compatErr, runtimeErr)
	}
}

func record(fields string) string {
	return `{"type":"record","name":"com.example.M","fields":[` + fields + `]}`
}

func TestCompatExplainsEachAvroRule(t *testing.T) {
	const (
		enumV1   = `{"name":"s","type":{"type":"enum","name":"com.example.S","symbols":["a","b"]}}`
		enumV2   = `{"name":"s","type":{"type":"enum","name":"com.example.S","symbols":["a","b","c"]}}`
		enumDefV = `{"name":"s","type":{"type":"enum","name":"com.example.S","symbols":["a","b"],"default":"a"}}`
	)
	cases := []struct {
		name       string
		base, next string
		dir        compatDir
		want       string // empty: compatible
	}{
		{"an enum gaining a symbol breaks BASE readers without a default", enumV1, enumV2, compatForward,
			"s: enum com.example.S gained symbol c, and the enum has no default in BASE"},
		{"an enum losing a symbol breaks the new reader without a default", enumV2, enumV1, compatBackward,
			"s: enum com.example.S lost symbol c, and the enum has no default"},
		{"an enum default lets BASE readers fall back", enumDefV, enumV2, compatForward, ""},
		{"a fixed resized", `{"name":"f","type":{"type":"fixed","name":"com.example.F","size":16}}`,
			`{"name":"f","type":{"type":"fixed","name":"com.example.F","size":32}}`, compatBackward,
			"f: fixed com.example.F changed size from 16 to 32 bytes"},
		{"a record renamed without an alias", `{"name":"r","type":{"type":"record","name":"com.example.A","fields":[]}}`,
			`{"name":"r","type":{"type":"record","name":"com.example.B","fields":[]}}`, compatBackward,
			"r: record renamed from com.example.A to com.example.B without an alias naming com.example.A"},
		{"a record renamed with an alias", `{"name":"r","type":{"type":"record","name":"com.example.A","fields":[]}}`,
			`{"name":"r","type":{"type":"record","name":"com.example.B","aliases":["com.example.A"],"fields":[]}}`, compatBackward, ""},
		{"a field renamed with an alias", `{"name":"a","type":"long"}`, `{"name":"b","type":"long","aliases":["a"]}`, compatBackward, ""},
		{"a union gaining a branch breaks BASE readers", `{"name":"u","type":["null","long"]}`,
			`{"name":"u","type":["null","long","string"]}`, compatForward,
			"u: union gained branch string, which readers built from BASE do not have"},
		{"a union losing a branch breaks the new reader", `{"name":"u","type":["null","long","string"]}`,
			`{"name":"u","type":["null","long"]}`, compatBackward,
			"u: union lost branch string, which writers built from BASE may still send"},
		{"a map value narrowed", `{"name":"m","type":{"type":"map","values":"long"}}`,
			`{"name":"m","type":{"type":"map","values":"int"}}`, compatBackward,
			"m{}: type changed from long to int, and Avro cannot read a written long as int"},
		{"a logical type is named", `{"name":"at","type":{"type":"long","logicalType":"timestamp-millis"}}`,
			`{"name":"at","type":"string"}`, compatBackward,
			"at: type changed from long (timestamp-millis) to string, and Avro cannot read a written long (timestamp-millis) as string"},
		{"string and bytes promote both ways", `{"name":"x","type":"string"}`, `{"name":"x","type":"bytes"}`, compatBackward, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			agreesWithTheRegistryWriter(t, record(c.base), record(c.next), c.dir)
			got := explainSchemas(t, record(c.base), record(c.next), c.dir)
			if c.want == "" {
				if got != nil {
					t.Fatalf("hamba/avro refused it: %q", got)
				}
				return
			}
			if len(got) != 1 || got[0] != c.want {
				t.Fatalf("got %q, want %q", got, c.want)
			}
		})
	}
}

func TestCompatNamesThePayloadWhenTheWholeSchemaChangedType(t *testing.T) {
	d := &diags{}
	m := compatItem{name: "M", record: &recordModel{}}
	base := avro.MustParse(`"long"`)
	next := avro.MustParse(`"int"`)
	compatDirection(d, m, base, next, compatCheck{dir: compatBackward, rule: "the rule"}, compatUsage{})
	if len(d.list) != 1 || !strings.Contains(d.list[0].Message, "M: payload: type changed from long to int") {
		t.Fatalf("got %v", d.list)
	}
}

func TestCompatNeverReportsWhatHambaAccepts(t *testing.T) {
	d := &diags{}
	m := compatItem{name: "M", record: &recordModel{}}
	s := avro.MustParse(record(`{"name":"a","type":"long"}`))
	compatDirection(d, m, s, s, compatCheck{dir: compatForward, rule: "the rule"}, compatUsage{})
	compatDirection(d, m, s, s, compatCheck{dir: compatBackward, rule: "the rule"}, compatUsage{})
	if len(d.list) != 0 {
		t.Fatalf("got %v", d.list)
	}
}

const compatOrders = "acemq: 1\ndomain: orders\nevents:\n  OrderPlaced:\n    fields: {orderId: uuid}\n"

func TestCompatMatchesMessagesByDomainSoMovingAContractChangesNothing(t *testing.T) {
	base := []Source{{Path: "old/orders.acemq.yaml", Data: []byte(compatOrders)}}
	next := []Source{{Path: "contracts/orders/events.acemq.yaml", Data: []byte(compatOrders)}}
	if ds := Compat(base, next); len(ds) != 0 {
		t.Fatalf("got %v", ds)
	}
}

func TestCompatReportsEveryMessageOfARemovedDomainWhereItWasInBase(t *testing.T) {
	base := []Source{{Path: "git:HEAD/orders.acemq.yaml", Data: []byte(compatOrders)}}
	next := []Source{{Path: "billing.acemq.yaml", Data: []byte(strings.Replace(compatOrders, "orders", "billing", 1))}}
	ds := Compat(base, next)
	if len(ds) != 1 || ds[0].String() != "git:HEAD/orders.acemq.yaml:4:3: OrderPlaced: removed; "+compatEvent.removed {
		t.Fatalf("got %v", ds)
	}
}

func TestCompatReturnsTheContractErrorsOfEitherSide(t *testing.T) {
	bad := []Source{{Path: "bad.acemq.yaml", Data: []byte("acemq: 1\ndomain: Orders!\n")}}
	good := []Source{{Path: "orders.acemq.yaml", Data: []byte(compatOrders)}}
	for _, ds := range []Diagnostics{Compat(bad, good), Compat(good, bad)} {
		if !ds.HasErrors() || ds[0].Pos.File != "bad.acemq.yaml" {
			t.Errorf("got %v", ds)
		}
	}
}
