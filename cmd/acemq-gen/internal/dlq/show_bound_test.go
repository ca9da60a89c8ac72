package dlq

import (
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/ops"
	"github.com/acemq/acemq-gen/generator"
	"github.com/acemq/acemq-gen/runtime/acemq"
)

// TestDLQShowSurvivesNestingBomb shows a parked nesting bomb of each text
// codec the way dlq show does: the decode is refused by the codec's limits,
// quickly and in little memory, and the body is shown as bytes with the
// reason, instead of the command dying of memory.
func TestDLQShowSurvivesNestingBomb(t *testing.T) {
	t.Setenv(ops.KeysEnv, "")
	dec, err := ops.NewDecoders("")
	if err != nil {
		t.Fatal(err)
	}
	const depth = 100_000
	for codec, body := range map[string]string{
		"yaml": strings.Repeat("[", depth) + strings.Repeat("]", depth),
		"toml": "a = " + strings.Repeat("{b = ", depth) + "1" + strings.Repeat("}", depth),
		"json": strings.Repeat(`{"a":`, depth) + "1" + strings.Repeat("}", depth),
	} {
		t.Run(codec, func(t *testing.T) {
			e := generator.Entry{Kind: "event", Domain: "shop", Name: "Placed" + codec, Type: "placed", Codec: codec}
			src := ops.Consumed{Queue: "q", Entries: []generator.Entry{e}}
			m := Peeked{Delivery: acemq.Delivery{Body: []byte(body)}, Envelope: acemq.Envelope{Type: "placed"}}
			var s Shown
			start := time.Now()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			s = showOne(Options{Queue: "q.parked"}, src, dec, m)
			runtime.ReadMemStats(&after)
			n := after.TotalAlloc - before.TotalAlloc
			if want := codec + ": nesting deeper than 100"; s.Payload != nil || !strings.Contains(s.Note, want) || len(s.Body) != len(body) || len(s.Note) > 1024 {
				t.Fatalf("Shown with note %q and payload %v, want the body as bytes and a note naming %q", s.Note, s.Payload, want)
			}
			if took := time.Since(start); took > time.Second {
				t.Errorf("showing it took %v", took)
			}
			if n > 16<<20 {
				t.Errorf("showing a %d-byte bomb allocated %d bytes", len(body), n)
			}
		})
	}
}
