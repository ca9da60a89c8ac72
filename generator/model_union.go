package generator

// union resolves {union: [...]}: null makes it nullable, [null, T] is T?,
// and every other branch must be a primitive, a decimal or a named type,
// each Avro branch name once.
func (r *resolver) union(e *typeExpr, hint string, top bool) *Type {
	u := &Type{Kind: Union, Iface: hint}
	for _, b := range e.Elems {
		if b.Op == exprName && b.Name == "null" {
			u.Nullable = true
			continue
		}
		bt := r.typeOf(b, hint, false)
		if bt == nil {
			return nil
		}
		u.Branches = append(u.Branches, bt)
	}
	if u.Nullable && len(u.Branches) == 1 {
		return &Type{Kind: Optional, Elem: u.Branches[0]}
	}
	if !r.checkUnion(e, u, top) {
		return nil
	}
	return u
}

func (r *resolver) checkUnion(e *typeExpr, u *Type, top bool) bool {
	ok := true
	if !top {
		r.d.errorf(e.P, "a union inside a list, map or optional cannot be represented in Go; make it the type of a record's field (null as a branch makes it optional)")
		ok = false
	}
	if len(u.Branches) == 0 {
		r.d.errorf(e.P, "a union needs at least one branch besides null")
		return false
	}
	seen := map[string]bool{}
	for _, b := range u.Branches {
		if b.Kind != Primitive && b.Kind != Named && b.Kind != Decimal {
			r.d.errorf(e.P, "a union branch must be a primitive, a decimal or a named type; wrap lists and maps in a record")
			return false
		}
		name := branchKey(b)
		if seen[name] {
			r.d.errorf(e.P, "a union holds one branch per Avro type; %s appears twice", name)
			ok = false
		}
		seen[name] = true
	}
	return ok
}

// branchKey is the name Avro's JSON encoding gives a union branch: the
// underlying type of a primitive or logical type, the full name of a named type.
func branchKey(t *Type) string {
	switch t.Kind {
	case Named:
		return t.Record.FullName
	case Decimal:
		return "bytes"
	}
	if l, ok := logical[t.Prim]; ok {
		return l[0]
	}
	return t.Prim
}
