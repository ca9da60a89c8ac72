package avro

import (
	"fmt"
	"sync"
)

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

// Union carries a union U of generated code through hamba/avro, which
// writes a union from a pointer implementing its UnionConverter, never from
// an interface: a generated record's Avro mirror holds a *Union where the
// record holds U, and a nil *Union is null. B is the generated type listing
// U's branches.
type Union[U any, B Branches[U]] struct {
	v U
}

// Branches is implemented by the zero-size type of generated code that
// lists a union's branches.
type Branches[U any] interface {
	Union() *UnionOf[U]
}

// UnionOf is a union of generated code: its Go type's name and the field it
// is the type of, which errors name, and its branches, in the contract's
// order.
type UnionOf[U any] struct {
	Name     string
	Field    string // "field note of StockMoved"
	Branches []Branch[U]
}

// Branch is one branch of a union U: its name as hamba/avro spells it
// ("string", "long.timestamp-millis", "com.acme.Box"), the value hamba/avro
// writes when a U is this branch, and the U a decoded value makes. Build one
// with Prim, Named or Mirrored.
type Branch[U any] struct {
	name string
	to   func(U) (any, bool)
	from func(name string, val any) (U, bool, error)
}

// NewUnion returns u in a Union; nil (null) when u is nil.
func NewUnion[B Branches[U], U any](u U) *Union[U, B] {
	if any(u) == nil {
		return nil
	}
	return &Union[U, B]{u}
}

// Value returns the union the Union holds; nil for null.
func (u *Union[U, B]) Value() U {
	if u == nil {
		var null U
		return null
	}
	return u.v
}

// ToAny returns the branch as {"<branch>": value}, how hamba/avro writes a
// union from a map.
func (u *Union[U, B]) ToAny() (any, error) {
	var b B
	for _, br := range b.Union().Branches {
		if v, ok := br.to(u.v); ok {
			return &map[string]any{br.name: v}, nil
		}
	}
	return nil, fmt.Errorf("acemq: %T is not a branch of %s", u.v, b.Union().Name)
}

// FromAny sets the union from what hamba/avro decoded: {"<branch>": value},
// or the value alone when every branch is a primitive.
func (u *Union[U, B]) FromAny(p any) error {
	var b B
	name, val := UnionBranch(p)
	for _, br := range b.Union().Branches {
		if v, ok, err := br.from(name, val); ok {
			u.v = v
			return err
		}
	}
	of := b.Union()
	return fmt.Errorf("acemq: %s: no branch of %s reads %q (%T)", of.Field, of.Name, name, val)
}

// wrapped is the Go type of a branch of a generated union: a struct holding
// the branch's value.
type wrapped[V any] interface{ ~struct{ Value V } }

// branchValue returns the value of u when u is the branch W.
func branchValue[U any, W wrapped[V], V any](u U) (V, bool) {
	w, ok := any(u).(W)
	return struct{ Value V }(w).Value, ok
}

// wrap returns v as the branch W of U.
func wrap[U any, W wrapped[V], V any](v V) U {
	u, _ := any(W(struct{ Value V }{v})).(U)
	return u
}

// Prim is the primitive branch W of U (a decimal too), which hamba/avro may
// decode without its name: as the Go value itself, or as int for an Avro
// int (an int32 in W).
func Prim[U any, W wrapped[V], V any](name string) Branch[U] {
	to := func(u U) (any, bool) { return branchValue[U, W](u) }
	return Branch[U]{name: name, to: to, from: func(n string, val any) (U, bool, error) {
		v, ok := nativeValue[V](val)
		if !ok || (n != "" && n != name) {
			var none U
			return none, false, nil
		}
		return wrap[U, W](v), true, nil
	}}
}

// nativeValue returns val as a V, reading hamba/avro's int as int32.
func nativeValue[V any](val any) (V, bool) {
	if i, ok := val.(int); ok {
		val = int32(i)
	}
	v, ok := val.(V)
	return v, ok
}

// Named is the record, enum or fixed branch W of U, whose value hamba/avro
// decodes without its Go type: it is read with schema (Into).
func Named[U any, W wrapped[V], V any](name, schema string) Branch[U] {
	return Mirrored[U, W](name, schema, func(v V) V { return v }, func(v V) V { return v })
}

// Mirrored is the record branch W of U that holds unions itself: hamba/avro
// writes and reads it as its mirror M, which to and from convert.
func Mirrored[U any, W wrapped[V], V, M any](name, schema string, to func(V) M, from func(M) V) Branch[U] {
	return Branch[U]{
		name: name,
		to: func(u U) (any, bool) {
			if v, ok := branchValue[U, W](u); ok {
				return to(v), true
			}
			return nil, false
		},
		from: func(n string, val any) (U, bool, error) {
			var m M
			if n != name {
				var none U
				return none, false, nil
			}
			err := Into(val, schema, &m)
			return wrap[U, W](from(m)), true, err
		},
	}
}
