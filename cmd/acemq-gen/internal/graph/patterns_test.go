package graph

import (
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/sysgraph"
)

// builds caches the graphs of the fixture modules: each load is a second
// or more.
var builds sync.Map

// built is the graph of the fixture directories dirs, built once.
func built(t *testing.T, dirs ...string) *sysgraph.Graph {
	t.Helper()
	key := strings.Join(dirs, " ")
	if g, ok := builds.Load(key); ok {
		return g.(*sysgraph.Graph)
	}
	g, err := Build(dirs)
	if err != nil {
		t.Fatal(err)
	}
	builds.Store(key, g)
	return g
}

// consumed is service's use consuming the domain's message, the one at a
// Consume call when there are several.
func consumed(t *testing.T, g *sysgraph.Graph, service, message string) sysgraph.Use {
	t.Helper()
	for _, s := range g.Services {
		if s.Name != service {
			continue
		}
		for _, u := range s.Consumes {
			if u.Message == message {
				return u
			}
		}
	}
	t.Fatalf("%s does not consume %s in the graph", service, message)
	return sysgraph.Use{}
}

func reads(u sysgraph.Use, field string) bool {
	return slices.ContainsFunc(u.Fields, func(f sysgraph.FieldRead) bool { return f.Field == field })
}

// TestAccessPatternsHaveNoFalseNegative: each handler of testdata/patterns
// reads the field b of its own event in one way (or lets the payload
// escape); the graph reports b read (or every field) for each, and every
// escape as every field with the reason.
func TestAccessPatternsHaveNoFalseNegative(t *testing.T) {
	g := built(t, "testdata/patterns")
	for _, c := range []struct {
		event, field, why string // field "" : an escape, every field read
	}{
		{"Direct", "b", ""}, {"PointerToPayload", "b", ""}, {"PointerMessage", "b", ""}, {"LocalCopy", "b", ""},
		{"Helper", "b", ""}, {"HelperPointer", "b", ""}, {"IndirectHelper", "b", ""}, {"Closure", "b", ""},
		{"MethodValue", "b", ""}, {"MethodExpr", "b", ""}, {"PointerReceiver", "b", ""}, {"Goroutine", "b", ""},
		{"GoroutineChannel", "b", ""}, {"Defer", "b", ""}, {"RangePayloads", "b", ""}, {"RangeNested", "items.y", ""},
		{"SwitchField", "b", ""}, {"Comparison", "b", ""}, {"Embedded", "b", ""}, {"EmbeddedPointer", "b", ""},
		{"GenericIdentity", "b", ""}, {"GenericCallback", "b", ""}, {"HolderField", "b", ""}, {"MapValue", "b", ""},
		{"Channel", "b", ""}, {"SliceElement", "b", ""}, {"FuncVariable", "b", ""}, {"AnonStruct", "b", ""},
		{"MultiReturn", "b", ""}, {"Subscribed", "b", ""}, {"GenericBoxField", "b", ""},
		{"GenericMethodLeak", "", "method (example.com/patterns.box[X]).show called on it, which lets it escape: passed to fmt.Println"},
		{"GenericLeak", "", "passed to example.com/patterns.show, which lets it escape: passed to fmt.Println"},
		{"AssignAny", "", "assigned to an interface"}, {"Printf", "", "passed to fmt.Printf"},
		{"Reflect", "", "passed to reflect.ValueOf"}, {"JSONMarshal", "", "passed to encoding/json.Marshal"},
		{"ReturnAny", "", "returned as an interface"}, {"TypeSwitch", "", "assigned to an interface"},
		{"CompareWhole", "", "compared whole"}, {"InterfaceValue", "", "assigned to an interface"},
		{"ConvertNamed", "", "converted to example.com/patterns.mine"},
		{"GeneratedMethod", "", "method AppendJSON reads every field"}, {"MapKey", "", "compared whole"}, {"AppendAny", "", "passed to append as an interface"},
	} {
		u := consumed(t, g, "patterns", c.event)
		switch {
		case c.field != "" && !reads(u, c.field) && !u.AllFields:
			t.Errorf("%s: %s is read but the graph says not: %+v", c.event, c.field, u)
		case c.field == "" && (!u.AllFields || !strings.Contains(u.Why, c.why)):
			t.Errorf("%s: the payload escapes (%s) but the graph says allFields %v, why %q", c.event, c.why, u.AllFields, u.Why)
		}
	}
}

// TestAFieldNobodyReadsIsNotReported: the precision the table above
// cannot show: a is read by none of these handlers.
func TestAFieldNobodyReadsIsNotReported(t *testing.T) {
	g := built(t, "testdata/patterns")
	for _, event := range []string{"Direct", "Helper", "Closure", "Embedded", "GenericCallback"} {
		if u := consumed(t, g, "patterns", event); reads(u, "a") || u.AllFields {
			t.Errorf("%s: a is read by nobody, the graph says %+v", event, u)
		}
	}
	if u := consumed(t, g, "patterns", "MapValue"); !reads(u, "a") {
		t.Errorf("MapValue: a is the map's key, read; the graph says %+v", u)
	}
}
