package avro

import "sync"

// Helpers for generated code whose payloads hold multi-branch unions, which
// hamba/avro decodes without their Go types (see acemq-gen's Avro mirrors).

// UnionBranch splits what hamba/avro decoded for a union: {"<branch>": value}
// gives the branch's name and its value; anything else (a primitive branch
// decoded alone) gives no name and the value itself.
func UnionBranch(p any) (string, any) {
	if m, ok := p.(map[string]any); ok && len(m) == 1 {
		for k, v := range m {
			return k, v
		}
	}
	return "", p
}

// intoCodecs holds one fixed-schema codec per schema Into was given, so a
// schema is parsed once per process, not once per decoded branch.
var intoCodecs sync.Map // string → *Codec

// Into reads val, a value hamba/avro decoded without its Go type (a record,
// enum or fixed branch of a union), into dst by writing it with schema and
// reading it back. Safe for concurrent use.
func Into(val any, schema string, dst any) error {
	c, err := intoCodec(schema)
	if err != nil {
		return err
	}
	body, err := c.Encode(val)
	if err != nil {
		return err
	}
	return c.Decode(body, dst)
}

// intoCodec returns the cached codec of schema, building it on first use.
func intoCodec(schema string) (*Codec, error) {
	if c, ok := intoCodecs.Load(schema); ok {
		return c.(*Codec), nil
	}
	c, err := Of(schema)
	if err != nil {
		return nil, err
	}
	actual, _ := intoCodecs.LoadOrStore(schema, c)
	return actual.(*Codec), nil
}
