package generator

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

// sInt64 is an integer key that may exceed an int32: a size in bytes.
type sInt64 struct {
	V     int64
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
	SetAside                               sStr // set-aside-queues: classic | quorum
	ScheduleLadder                         sStr // schedule-ladder: classic | quorum
	Encrypted                              sBool
	Retry                                  *syntaxRetry
	Types                                  []*syntaxType
	Messages                               []*syntaxMessage // events, commands and streams
	RPCs                                   []*syntaxRPC
	Imports                                []syntaxImport
	Avro                                   bool // an .avsc file
	// Refused are the .avsc messages whose kind or domain is wrong: they
	// declare nothing, but the values of their other keys are checked.
	Refused []*syntaxMessage
}

// syntaxQueueKeys are the keys of an event, command or rpc about the queues
// it is consumed from, by their name in queueKeyTable: an integer key's
// value in ints, a string key's in strs. Nil maps hold none.
type syntaxQueueKeys struct {
	ints map[string]sInt
	strs map[string]sStr
}

type syntaxImport struct {
	Alias, Path sStr
}

type syntaxRPC struct {
	Name, Doc, Deprecated, Codec, Queue, Timeout sStr
	syntaxQueueKeys
	Encrypted         sBool
	Version           sInt
	Errors            []sStr
	Request, Response *syntaxPayload
}

// syntaxPayload is the request or the response of an RPC.
type syntaxPayload struct {
	P         Pos
	Doc       sStr
	Schema    sStr
	Fields    []*syntaxField
	FieldsSet bool
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
	Enum                  []sStr
	EnumSet               bool
	Default               sStr // enum default symbol
	Fixed                 sInt
	Namespace             string // .avsc: the type's own namespace
	Aliases               []string
	Go                    sStr // go: import/path.Type, the Go type the type is bound to
}

type syntaxMessage struct {
	Kind                                                     messageKind
	Name, Doc, Deprecated, Codec, RoutingKey, Queue, Subject sStr
	syntaxQueueKeys
	Version          sInt
	Encrypted        sBool
	Mandatory        sBool // events only
	Schedulable      sBool
	Retry            *syntaxRetry
	MaxAge           sStr   // streams only
	MaxBytes         sInt64 // streams only
	SegmentBytes     sInt64 // streams only
	Headers          []*syntaxHeader
	Fields           []*syntaxField
	FieldsSet        bool
	Schema           sStr
	Payload          *syntaxType  // .avsc: the record itself
	Domain, AvroKind sStr         // .avsc: acemq.domain, acemq.kind
	Timeout          sStr         // .avsc rpc-request
	Errors           []sStr       // .avsc rpc-request
	rec              *recordModel // .avsc: the payload, once declared
}

type syntaxHeader struct {
	Name, Type, Doc sStr
	Required        sBool
}

type syntaxField struct {
	Name, Doc, Deprecated sStr
	Type                  *typeExpr
	Default               *sValue // nil when absent
	Aliases               []string
}

// exprOp is the shape of a type expression.
type exprOp int

const (
	exprName     exprOp = iota // a primitive or a type declared in types:
	exprOptional               // T?
	exprArray                  // [T] or {array: T}
	exprMap                    // {map: T}
	exprUnion                  // {union: [A, B]}
	exprFixed                  // {fixed: N}
)

// typeExpr is a field's type as written.
type typeExpr struct {
	P     Pos
	Op    exprOp
	Name  string
	Elem  *typeExpr
	Elems []*typeExpr // exprUnion
	Size  int         // exprFixed
}

// sValue is a value the contract writes whose type only the model knows (a
// field's default): decoded from YAML or JSON, with its position.
type sValue struct {
	P     Pos
	Kind  valueKind
	What  string // the kind as diagnostics name it: "a string", "an integer", "empty"
	Bool  bool
	Int   int64
	IntOK bool // the integer fits an int64
	Float float64
	Str   string
	List  []*sValue
	Map   []sEntry // in file order
}

// sEntry is one key of a mapping value, with the key's position.
type sEntry struct {
	Key string
	P   Pos
	Val *sValue
}

// valueKind is the shape of a decoded value.
type valueKind int

const (
	valueOther  valueKind = iota // infinity, NaN, an alias: what no default is
	valueNull                    // null, ~ or nothing
	valueBool                    // true or false
	valueInt                     // an integer
	valueFloat                   // a finite floating-point number
	valueString                  // a string, a block scalar too
	valueList                    // a sequence
	valueMap                     // a mapping
)
