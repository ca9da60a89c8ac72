package generator

import "github.com/goccy/go-yaml/ast"

// The syntax tree: what a contract file says, with positions, before names
// are resolved and defaults applied.

// sStr, sInt and sBool are scalars of the contract with their positions; Set
// is true when the key holds a value of the right kind, Given when the key is
// there at all (a value of the wrong kind was already reported).
type sStr struct {
	V     string
	P     Pos
	Set   bool
	Given bool
}

type sInt struct {
	V     int
	P     Pos
	Set   bool
	Given bool
}

type sBool struct {
	V     bool
	P     Pos
	Set   bool
	Given bool
}

type syntaxFile struct {
	Path                                   string
	P                                      Pos
	Acemq                                  sInt
	Domain, Package, Namespace, Doc, Codec sStr
	Encrypted                              sBool
	Retry                                  *syntaxRetry
	Types                                  []*syntaxType
	Messages                               []*syntaxMessage
}

type syntaxRetry struct {
	P                             Pos
	Attempts                      sInt
	Backoff, Initial, Max, MaxAge sStr
}

type syntaxType struct {
	Name, Doc, Deprecated sStr
	Fields                []*syntaxField
	FieldsSet             bool
}

type syntaxMessage struct {
	Kind                                                     MessageKind
	Name, Doc, Deprecated, Codec, RoutingKey, Queue, Subject sStr
	Version                                                  sInt
	Encrypted                                                sBool
	Retry                                                    *syntaxRetry
	Headers                                                  []*syntaxHeader
	Fields                                                   []*syntaxField
	FieldsSet                                                bool
}

type syntaxHeader struct {
	Name, Type, Doc sStr
	Required        sBool
}

type syntaxField struct {
	Name, Doc, Deprecated sStr
	Type                  *typeExpr
	Default               ast.Node // nil when absent
	Aliases               []string
}

// exprOp is the shape of a type expression.
type exprOp int

const (
	exprName     exprOp = iota // a primitive or a type declared in types:
	exprOptional               // T?
	exprArray                  // [T] or {array: T}
	exprMap                    // {map: T}
)

// typeExpr is a field's type as written.
type typeExpr struct {
	P    Pos
	Op   exprOp
	Name string
	Elem *typeExpr
}
