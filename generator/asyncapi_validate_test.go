package generator

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/acemq/acemq-gen/internal/testenv"
)

// asyncapiParser is the node_modules directory holding @asyncapi/parser and
// @asyncapi/avro-schema-parser (scripts/test.sh installs them there).
func asyncapiParser(t *testing.T) string { return testenv.AsyncAPIParser(t) }

// TestAsyncAPIDocumentsPassTheParser validates every golden case's documents
// in YAML (and a few in JSON), with a server entry, with @asyncapi/parser: zero errors, zero warnings.
func TestAsyncAPIDocumentsPassTheParser(t *testing.T) {
	parser := asyncapiParser(t)
	out := t.TempDir()
	var files []string
	for _, name := range goldenCases(t) {
		srcs := caseSources(t, filepath.Join(goldenDir, name))
		formats := []string{"yaml"}
		if name == "rpc" || name == "codec_avro" || name == "unions" {
			formats = append(formats, "json") // the same document; a few suffice
		}
		for _, format := range formats {
			res := AsyncAPI(srcs, AsyncAPIFormat(format), AsyncAPIServer("production", "amqps://rabbit.example.com:5671/orders"))
			for _, f := range res.Files {
				p := filepath.Join(out, name, f.Path)
				must(t, os.MkdirAll(filepath.Dir(p), 0o755))
				must(t, os.WriteFile(p, f.Data, 0o644))
				files = append(files, p)
			}
		}
	}
	if len(files) < 30 {
		t.Fatalf("only %d documents to validate", len(files))
	}
	cmd := exec.Command("node", append([]string{"../scripts/asyncapi/validate.mjs"}, files...)...)
	cmd.Env = append(os.Environ(), "ACEMQ_ASYNCAPI_PARSER="+parser)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("@asyncapi/parser: %v\n%s", err, msg)
	}
}
