package graph

import (
	"go/types"
	"slices"
)

// recordsIn lists the generated records a value of type t holds (by value,
// through pointers, slices, arrays, maps, channels, structs and the
// acemq.Message[T] around a payload), each as "package path.Type".
func (a *analysis) recordsIn(t types.Type) []string {
	if got, ok := a.holds[t]; ok {
		return got
	}
	a.holds[t] = nil // a recursive type holds what its other parts hold
	var out []string
	a.walkHeld(t, func(key string) {
		if !slices.Contains(out, key) {
			out = append(out, key)
		}
	})
	slices.Sort(out)
	a.holds[t] = out
	return out
}

// walkHeld calls found for every record t holds.
func (a *analysis) walkHeld(t types.Type, found func(string)) {
	switch x := t.(type) {
	case *types.Named:
		if key, ok := a.recordKey(x); ok {
			found(key)
		}
		a.each(x.Underlying(), found)
	case *types.Alias:
		a.each(types.Unalias(x), found)
	case *types.Pointer:
		a.each(x.Elem(), found)
	case *types.Slice:
		a.each(x.Elem(), found)
	case *types.Array:
		a.each(x.Elem(), found)
	case *types.Map:
		a.each(x.Key(), found)
		a.each(x.Elem(), found)
	case *types.Chan:
		a.each(x.Elem(), found)
	case *types.Struct:
		for i := range x.NumFields() {
			a.each(x.Field(i).Type(), found)
		}
	case *types.Tuple:
		for i := range x.Len() {
			a.each(x.At(i).Type(), found)
		}
	}
}

// each reports the records t holds, through the cache.
func (a *analysis) each(t types.Type, found func(string)) {
	for _, k := range a.recordsIn(t) {
		found(k)
	}
}

// recordKey is "package path.Type" when n is a struct a generated package
// declares; it remembers n for the records' field lists.
func (a *analysis) recordKey(n *types.Named) (string, bool) {
	if _, ok := n.Underlying().(*types.Struct); !ok || a.generated(n.Obj().Pkg()) == nil {
		return "", false
	}
	key := n.Obj().Pkg().Path() + "." + n.Obj().Name()
	if _, ok := a.records[key]; !ok {
		a.records[key] = n
	}
	return key, true
}
