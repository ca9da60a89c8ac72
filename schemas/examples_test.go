package schemas

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"
)

// validator checks a value against the subset of JSON Schema the contract
// schema uses: type, enum, const, pattern, minimum, properties, required,
// additionalProperties, propertyNames, items, min/maxItems,
// min/maxProperties, oneOf, not and local $ref.
type validator struct {
	root map[string]any
}

func (v validator) check(s map[string]any, x any, at string) []string {
	if ref, ok := s["$ref"].(string); ok {
		return v.check(v.resolve(ref), x, at)
	}
	var errs []string
	for _, rule := range []func(map[string]any, any, string) []string{v.checkType, checkEnum, checkString, checkNumber, v.checkObject, v.checkArray, v.checkOneOf, v.checkNot} {
		errs = append(errs, rule(s, x, at)...)
	}
	return errs
}

func (v validator) resolve(ref string) map[string]any {
	node := any(v.root)
	for _, part := range strings.Split(strings.TrimPrefix(ref, "#/"), "/") {
		node = node.(map[string]any)[part]
	}
	return node.(map[string]any)
}

func kindOf(x any) string {
	switch n := x.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	case float64:
		if n == math.Trunc(n) {
			return "integer"
		}
		return "number"
	}
	return "integer"
}

func (v validator) checkType(s map[string]any, x any, at string) []string {
	var want []string
	switch t := s["type"].(type) {
	case string:
		want = []string{t}
	case []any:
		for _, e := range t {
			want = append(want, e.(string))
		}
	default:
		return nil
	}
	k := kindOf(x)
	if slices.Contains(want, k) || k == "integer" && slices.Contains(want, "number") {
		return nil
	}
	return []string{fmt.Sprintf("%s: %s, want %v", at, k, want)}
}

func checkEnum(s map[string]any, x any, at string) []string {
	if c, ok := s["const"]; ok && fmt.Sprint(c) != fmt.Sprint(x) {
		return []string{fmt.Sprintf("%s: %v, want %v", at, x, c)}
	}
	enum, ok := s["enum"].([]any)
	if !ok || slices.ContainsFunc(enum, func(e any) bool { return fmt.Sprint(e) == fmt.Sprint(x) }) {
		return nil
	}
	return []string{fmt.Sprintf("%s: %v is not one of %v", at, x, enum)}
}

func checkString(s map[string]any, x any, at string) []string {
	p, ok := s["pattern"].(string)
	str, isStr := x.(string)
	if !ok || !isStr || regexp.MustCompile(p).MatchString(str) {
		return nil
	}
	return []string{fmt.Sprintf("%s: %q does not match %s", at, str, p)}
}

func checkNumber(s map[string]any, x any, at string) []string {
	lo, ok := s["minimum"].(float64)
	n, isNum := x.(float64)
	if !ok || !isNum || n >= lo {
		return nil
	}
	return []string{fmt.Sprintf("%s: %v is below %v", at, n, lo)}
}

func (v validator) checkObject(s map[string]any, x any, at string) []string {
	obj, ok := x.(map[string]any)
	if !ok {
		return nil
	}
	var errs []string
	for _, r := range asList(s["required"]) {
		if _, has := obj[r.(string)]; !has {
			errs = append(errs, fmt.Sprintf("%s: lacks %s", at, r))
		}
	}
	errs = append(errs, countRule(s, "minProperties", "maxProperties", len(obj), at)...)
	props, _ := s["properties"].(map[string]any)
	for k, val := range obj {
		if names, ok := s["propertyNames"].(map[string]any); ok {
			errs = append(errs, v.check(names, k, at+"/"+k+" (name)")...)
		}
		errs = append(errs, v.property(s, props, k, val, at)...)
	}
	return errs
}

func (v validator) property(s, props map[string]any, k string, val any, at string) []string {
	if p, ok := props[k].(map[string]any); ok {
		return v.check(p, val, at+"/"+k)
	}
	switch add := s["additionalProperties"].(type) {
	case bool:
		if !add {
			return []string{fmt.Sprintf("%s: %q is not allowed", at, k)}
		}
	case map[string]any:
		return v.check(add, val, at+"/"+k)
	}
	return nil
}

func (v validator) checkArray(s map[string]any, x any, at string) []string {
	arr, ok := x.([]any)
	if !ok {
		return nil
	}
	errs := countRule(s, "minItems", "maxItems", len(arr), at)
	if items, ok := s["items"].(map[string]any); ok {
		for i, e := range arr {
			errs = append(errs, v.check(items, e, fmt.Sprintf("%s[%d]", at, i))...)
		}
	}
	return errs
}

func countRule(s map[string]any, minKey, maxKey string, n int, at string) []string {
	if lo, ok := s[minKey].(float64); ok && float64(n) < lo {
		return []string{fmt.Sprintf("%s: %d entries, fewer than %v", at, n, lo)}
	}
	if hi, ok := s[maxKey].(float64); ok && float64(n) > hi {
		return []string{fmt.Sprintf("%s: %d entries, more than %v", at, n, hi)}
	}
	return nil
}

func (v validator) checkOneOf(s map[string]any, x any, at string) []string {
	alts := asList(s["oneOf"])
	if len(alts) == 0 {
		return nil
	}
	matched := 0
	for _, a := range alts {
		if len(v.check(a.(map[string]any), x, at)) == 0 {
			matched++
		}
	}
	if matched == 1 {
		return nil
	}
	return []string{fmt.Sprintf("%s: %d branches of oneOf match %v", at, matched, x)}
}

func (v validator) checkNot(s map[string]any, x any, at string) []string {
	n, ok := s["not"].(map[string]any)
	if !ok || len(v.check(n, x, at)) > 0 {
		return nil
	}
	return []string{fmt.Sprintf("%s: %v matches what the schema forbids", at, x)}
}

func asList(x any) []any {
	l, _ := x.([]any)
	return l
}

// contractExamples are the YAML contracts the generator accepts: the golden
// cases without diagnostics, the examples and the scaffold init writes.
func contractExamples(t *testing.T) []string {
	t.Helper()
	var out []string
	walk := func(root string) {
		_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".acemq.yaml") && !strings.Contains(p, "diag_") {
				out = append(out, p)
			}
			return nil
		})
	}
	walk("../testdata/golden")
	walk("../examples")
	walk("../cmd/acemq-gen/testdata")
	if len(out) < 20 {
		t.Fatalf("found %d example contracts", len(out))
	}
	return out
}

func TestEveryExampleContractValidatesAgainstTheSchema(t *testing.T) {
	var root map[string]any
	if err := json.Unmarshal(Contract, &root); err != nil {
		t.Fatal(err)
	}
	v := validator{root: root}
	for _, p := range contractExamples(t) {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := yamlToJSON(data)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		for _, e := range v.check(root, doc, "") {
			t.Errorf("%s: %s", p, e)
		}
	}
}

func TestTheValidatorRejectsAContractTheSchemaForbids(t *testing.T) {
	var root map[string]any
	if err := json.Unmarshal(Contract, &root); err != nil {
		t.Fatal(err)
	}
	doc, err := yamlToJSON([]byte("acemq: 1\ndomain: Bad_Domain\nevents: {E: {fields: {a: string}, colour: red}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if errs := (validator{root: root}).check(root, doc, ""); len(errs) < 2 {
		t.Fatalf("want the bad domain and the unknown key reported, got %v", errs)
	}
}

// yamlToJSON reads YAML into the values encoding/json would produce.
func yamlToJSON(data []byte) (any, error) {
	var x any
	if err := yaml.Unmarshal(data, &x); err != nil {
		return nil, err
	}
	b, err := json.Marshal(x)
	if err != nil {
		return nil, err
	}
	var out any
	return out, json.Unmarshal(b, &out)
}
