package avro

import (
	"errors"
	"testing"
)

func TestMemoryRegistryNumbersFromOneAndVersionsPerSubject(t *testing.T) {
	reg := NewMemoryRegistry()
	a := must[SchemaDefinition](t)(reg.Register(t.Context(), "orders", FormatAvro, orderV1))
	b := must[SchemaDefinition](t)(reg.Register(t.Context(), "orders", FormatAvro, orderV2))
	if a.ID != 1 || b.ID != 2 || a.Version != 1 || b.Version != 2 || a.Subject != "orders" || a.RegisteredAt.IsZero() {
		t.Fatalf("registered %+v and %+v", a, b)
	}
	if got := must[SchemaDefinition](t)(reg.Latest(t.Context(), "orders")); got.ID != 2 {
		t.Fatalf("Latest = %+v", got)
	}
	all := must[[]SchemaDefinition](t)(reg.Versions(t.Context(), "orders"))
	if len(all) != 2 || all[0].Version != 1 || all[1].Version != 2 {
		t.Fatalf("Versions = %+v", all)
	}
	if got := must[SchemaDefinition](t)(reg.ByID(t.Context(), 1)); got.Definition != orderV1 || got.Format != FormatAvro {
		t.Fatalf("ByID(1) = %+v", got)
	}
}

func TestMemoryRegistryDedupesTheSameSchemaInCanonicalForm(t *testing.T) {
	reg := NewMemoryRegistry()
	first := must[SchemaDefinition](t)(reg.Register(t.Context(), "orders", FormatAvro, orderV1))
	respelled := `{"namespace": "com.acme", "name": "Order", "type": "record", "doc": "reformatted",
	  "fields": [{"type": "string", "name": "orderId"},
	             {"name": "placedAt", "type": {"logicalType": "timestamp-millis", "type": "long"}}]}`
	again := must[SchemaDefinition](t)(reg.Register(t.Context(), "orders", FormatAvro, respelled))
	if again.ID != first.ID || again.Version != 1 || again.Fingerprint != first.Fingerprint {
		t.Fatalf("re-registering the same schema gave %+v, first %+v", again, first)
	}
	if n := len(must[[]SchemaDefinition](t)(reg.Versions(t.Context(), "orders"))); n != 1 {
		t.Fatalf("%d versions after re-registering", n)
	}
	other := must[SchemaDefinition](t)(reg.Register(t.Context(), "payments", FormatAvro, respelled))
	if other.ID != first.ID || other.Subject != "payments" || other.Version != 1 {
		t.Fatalf("the same schema under another subject: %+v", other)
	}
}

func TestFingerprintIsSHA256OfTheCanonicalForm(t *testing.T) {
	fp := must[string](t)(Fingerprint(FormatAvro, `{"type":"string"}`))
	// sha256("\"string\"")
	if fp != "e9e5c1c9e4f6277339d1bcde0733a59bd42f8731f449da6dc13010a916930d48" {
		t.Fatalf("Fingerprint = %s", fp)
	}
	if a, b := must[string](t)(Fingerprint("json", "{}")), must[string](t)(Fingerprint("json", "{ }")); a == b {
		t.Fatal("a non-Avro format was not fingerprinted byte for byte")
	}
}

func TestMemoryRegistryReportsMissingSchemasAndRefusesInvalidOnes(t *testing.T) {
	reg := NewMemoryRegistry()
	if _, err := reg.ByID(t.Context(), 1); !errors.Is(err, ErrSchemaNotFound) {
		t.Errorf("ByID: %v", err)
	}
	if _, err := reg.Latest(t.Context(), "none"); !errors.Is(err, ErrSchemaNotFound) {
		t.Errorf("Latest: %v", err)
	}
	if _, err := reg.Versions(t.Context(), "none"); !errors.Is(err, ErrSchemaNotFound) {
		t.Errorf("Versions: %v", err)
	}
	if _, err := reg.Register(t.Context(), "s", FormatAvro, `{"type":`); err == nil {
		t.Error("an invalid schema was registered")
	}
	if ErrSchemaNotFound.Error() != "acemq: no such schema" {
		t.Errorf("ErrSchemaNotFound = %q", ErrSchemaNotFound)
	}
}

func TestMemoryRegistryRefusesAnEmptySubjectAndDefaultsTheFormat(t *testing.T) {
	reg := NewMemoryRegistry()
	if _, err := reg.Register(t.Context(), "", FormatAvro, orderV1); !errors.Is(err, errNoSubject) {
		t.Fatalf("empty subject: %v", err)
	}
	if d := must[SchemaDefinition](t)(reg.Register(t.Context(), "s", "", orderV1)); d.Format != FormatAvro {
		t.Fatalf("format %q", d.Format)
	}
}
