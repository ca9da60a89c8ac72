package generator

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// fingerprint64 is the Avro specification's reference CRC-64-AVRO.
func fingerprint64(buf []byte) uint64 {
	const empty = 0xc15d213aa4d7a795
	var table [256]uint64
	for i := range table {
		fp := uint64(i)
		for j := 0; j < 8; j++ {
			fp = (fp >> 1) ^ (empty & -(fp & 1))
		}
		table[i] = fp
	}
	fp := uint64(empty)
	for _, b := range buf {
		fp = (fp >> 8) ^ table[byte(fp)^b]
	}
	return fp
}

func TestFingerprintIsTheSpecificationsCRC64OfTheCanonicalSchema(t *testing.T) {
	m, ds := build(caseSources(t, filepath.Join(goldenDir, "records_defaults")))
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	for _, rec := range domainRecords(m.Domains[0]) {
		if want := fingerprint64([]byte(rec.Avro.Canonical)); rec.Avro.Fingerprint != want {
			t.Errorf("%s: fingerprint %#x, want %#x", rec.Name, rec.Avro.Fingerprint, want)
		}
	}
}

func TestFullSchemaKeepsDocsDefaultsAndAliasesAndCanonicalDropsThem(t *testing.T) {
	m, _ := build(caseSources(t, filepath.Join(goldenDir, "records_defaults")))
	var issued *recordModel
	for _, rec := range domainRecords(m.Domains[0]) {
		if rec.Name == "InvoiceIssued" {
			issued = rec
		}
	}
	var full struct {
		Fields []struct {
			Name    string
			Default json.RawMessage
			Aliases []string
		}
	}
	if err := json.Unmarshal([]byte(issued.Avro.Full), &full); err != nil {
		t.Fatal(err)
	}
	got := full.Fields[1]
	if got.Name != "fallback" || string(got.Default) != `{"cents":5,"currency":"GBP","exact":true,"rate":1}` {
		t.Errorf("fallback default is %s; want the given cents with the record's own defaults", got.Default)
	}
	if full.Fields[2].Aliases[0] != "recipient" {
		t.Errorf("aliases lost: %+v", full.Fields[2])
	}
	for _, word := range []string{`"default"`, `"doc"`, `"aliases"`} {
		if strings.Contains(issued.Avro.Canonical, word) {
			t.Errorf("canonical form keeps %s", word)
		}
	}
}
