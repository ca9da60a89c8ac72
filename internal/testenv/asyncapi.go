package testenv

import (
	"os"
	"testing"
)

// AsyncAPIParser returns ACEMQ_ASYNCAPI_PARSER, the node_modules directory
// holding @asyncapi/parser and @asyncapi/avro-schema-parser that
// scripts/test.sh installs (scripts/asyncapi.sh install). Unset, the test is
// skipped, or fails when ACEMQ_REQUIRE_ASYNCAPI is set, as scripts/test.sh
// sets it.
func AsyncAPIParser(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("ACEMQ_ASYNCAPI_PARSER")
	if dir == "" {
		if os.Getenv("ACEMQ_REQUIRE_ASYNCAPI") != "" {
			t.Fatal("ACEMQ_REQUIRE_ASYNCAPI is set but ACEMQ_ASYNCAPI_PARSER names no @asyncapi/parser installation")
		}
		t.Skip("ACEMQ_ASYNCAPI_PARSER is not set: set it to a node_modules directory holding @asyncapi/parser (scripts/test.sh installs one) to validate the AsyncAPI documents")
	}
	return dir
}
