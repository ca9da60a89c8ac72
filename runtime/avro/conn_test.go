package avro

import (
	"strings"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemqtest"
)

func TestRegistryFromReturnsTheRegistryGivenToConnect(t *testing.T) {
	reg := NewMemoryRegistry()
	conn, _ := acemqtest.Connect(t, WithRegistry(reg))
	got, err := RegistryFrom(conn)
	if err != nil || got != reg {
		t.Fatalf("RegistryFrom = %v, %v", got, err)
	}
}

func TestRegistryFromWithoutTheOptionNamesIt(t *testing.T) {
	conn, _ := acemqtest.Connect(t)
	for _, c := range []*acemq.Conn{conn, nil} {
		if _, err := RegistryFrom(c); err == nil || !strings.Contains(err.Error(), "avro.WithRegistry") {
			t.Errorf("RegistryFrom: %v", err)
		}
	}
}

func TestTheCodecBuildersBuildFromTheSchemaAndTheConnectionsRegistry(t *testing.T) {
	schema := `{"type":"record","name":"R","fields":[{"name":"a","type":"string"}]}`
	if c, err := Builder(schema)(nil); err != nil || c == nil {
		t.Fatalf("Builder = %v, %v", c, err)
	}
	if _, err := RegisteredBuilder("s", schema)(nil); err == nil || !strings.Contains(err.Error(), "avro.WithRegistry") {
		t.Fatalf("RegisteredBuilder without a registry: %v", err)
	}
	conn, _ := acemqtest.Connect(t, WithRegistry(NewMemoryRegistry()))
	if c, err := RegisteredBuilder("s", schema)(conn); err != nil || c == nil {
		t.Fatalf("RegisteredBuilder = %v, %v", c, err)
	}
}
