package generator

import "time"

// Model is every domain of one run, resolved and validated, ordered by
// package name.
type Model struct {
	Domains []*domain
}

// domain is one contract: the messages of a bounded context, generated into
// one Go package.
type domain struct {
	Source    string // base name of the contract file, for comments
	Pos       Pos
	Name      string // the domain, also the topic exchange
	Package   string
	Namespace string // Avro namespace
	Doc       string
	Records   []*Record  // the types: section, in file order, then inline fixed types
	Messages  []*Message // events, then commands, in file order
	RPCs      []*RPC     // request/reply, in file order
	Library   bool       // a type library: types only, no exchange, no messages
	Dir       string     // slash-separated directory of the source, for imports
}

// RPC is one request/reply pair served on one owning queue.
type RPC struct {
	Pos        Pos
	Name       string
	Doc        string
	Deprecated string
	Queue      string
	Timeout    time.Duration
	Errors     []*RPCError
	Codec      string
	Encrypted  bool
	Version    int
	Request    *Record // <Name>Request
	Response   *Record // <Name>Response
}

// RPCError is a declared failure of an RPC.
type RPCError struct {
	Pos  Pos
	Name string // UpperCamel; the Go variable is Err<Name>
}

// MessageKind tells events from commands (and, later, RPC requests and responses).
type MessageKind int

const (
	// Event is a fact published to the domain's topic exchange.
	Event MessageKind = iota
	// Command is a request to act, consumed from one owning queue.
	Command
)

// String names the kind in lower case.
func (k MessageKind) String() string {
	if k == Command {
		return "command"
	}
	return "event"
}

// Message is one event or command with everything its publisher and consumer need.
type Message struct {
	Kind       MessageKind
	Pos        Pos
	Name       string
	Doc        string
	Deprecated string
	RoutingKey string
	Queue      string // commands only
	Subject    string // registry subject (avro-registered)
	Codec      string
	Encrypted  bool
	Mandatory  bool // its publisher fails a message that reaches no queue: every command, an event that says so
	Version    int
	Retry      Retry
	Headers    []*Header
	Record     *Record // the payload
}

// Retry is a consumer's retry policy.
type Retry struct {
	Attempts int
	Backoff  string // exponential | fixed
	Initial  time.Duration
	Max      time.Duration // exponential only
	MaxAge   time.Duration // 0: no limit
}

// Header is a typed application header of a message.
type Header struct {
	Pos      Pos
	Name     string
	GoName   string // the part after "Header" in the option's name
	Type     string // boolean, int, long, double or string
	Typed    bool   // the contract declared Type; otherwise Type is string and values go unchecked
	Doc      string
	Required bool
}

// Shape tells records, enums and fixed types apart.
type Shape int

const (
	// RecordShape is an Avro record: a Go struct.
	RecordShape Shape = iota
	// EnumShape is an Avro enum: a Go string type with constants.
	EnumShape
	// FixedShape is an Avro fixed: a Go byte array.
	FixedShape
)

// Record is a named type: a record, enum or fixed of types:, a message
// payload, or a fixed type written inline in a field.
type Record struct {
	Pos         Pos
	Shape       Shape
	Name        string
	FullName    string // Avro full name: namespace.Name
	Doc         string
	Deprecated  string
	Fields      []*Field
	Symbols     []string // EnumShape
	EnumDefault string   // EnumShape; "" when none
	Size        int      // FixedShape
	Aliases     []string
	Owner       *domain // the package that declares the Go type
	Avro        Schemas // set once the domain validated without errors
}

// Field is one field of a record.
type Field struct {
	Pos        Pos
	Name       string // the wire name
	GoName     string
	Doc        string
	Deprecated string
	Type       *Type
	Default    any // the Avro default as JSON; meaningful when HasDefault
	HasDefault bool
	Aliases    []string
}

// TypeKind is the shape of a resolved type.
type TypeKind int

const (
	// Primitive is boolean, int, long, float, double, string, bytes or a logical type.
	Primitive TypeKind = iota
	// Named is a record of types:.
	Named
	// Optional is T?.
	Optional
	// Array is [T].
	Array
	// Map is {map: T}.
	Map
	// Decimal is decimal(P,S): Avro bytes with logical type decimal, *big.Rat.
	Decimal
	// Union is {union: [A, B, ...]}: a sealed Go interface, one wrapper type per branch.
	Union
)

// Type is a resolved field type.
type Type struct {
	Kind             TypeKind
	Prim             string  // Primitive: its YAML name
	Record           *Record // Named
	Elem             *Type   // Optional, Array, Map
	Precision, Scale int     // Decimal
	Branches         []*Type // Union, without null
	Nullable         bool    // Union: null is a branch (first, as Avro defaults need)
	Iface            string  // Union: the Go interface's name
}
