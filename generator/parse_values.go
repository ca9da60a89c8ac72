package generator

import "github.com/goccy/go-yaml/ast"

// value decodes n, a value whose type the model checks (a field's default),
// with its position; nil when n is absent.
func (y *yamlDoc) value(n ast.Node) *sValue {
	if n == nil {
		return nil
	}
	v := &sValue{P: y.pos(n), What: kindName(n)}
	switch x := unwrap(n).(type) {
	case *ast.NullNode:
		v.Kind = valueNull
	case *ast.BoolNode:
		v.Kind, v.Bool = valueBool, x.Value
	case *ast.IntegerNode:
		v.Kind = valueInt
		v.Int, v.IntOK = intValue(x)
	case *ast.FloatNode:
		v.Kind, v.Float = valueFloat, x.Value
	case *ast.StringNode:
		v.Kind, v.Str = valueString, x.Value
	case *ast.LiteralNode:
		v.Kind, v.Str = valueString, x.Value.Value
	case *ast.SequenceNode:
		v.Kind, v.List = valueList, y.values(x.Values)
	case *ast.MappingNode:
		v.Kind, v.Map = valueMap, y.valueEntries(x)
	}
	return v
}

// element decodes a value inside a list or a mapping, where an absent value
// is empty rather than missing.
func (y *yamlDoc) element(n ast.Node) *sValue {
	if n == nil {
		return &sValue{P: Pos{File: y.path}, What: kindName(nil)}
	}
	return y.value(n)
}

func (y *yamlDoc) values(ns []ast.Node) []*sValue {
	out := make([]*sValue, 0, len(ns))
	for _, n := range ns {
		out = append(out, y.element(n))
	}
	return out
}

func (y *yamlDoc) valueEntries(m *ast.MappingNode) []sEntry {
	var out []sEntry
	for _, mv := range m.Values {
		out = append(out, sEntry{Key: keyText(mv.Key), P: y.pos(mv.Key), Val: y.element(mv.Value)})
	}
	return out
}
