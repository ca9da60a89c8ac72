package generator

import "time"

// model is every domain of one run, resolved and validated, ordered by
// package name.
type model struct {
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
	Records   []*recordModel // the types: section, in file order, then inline fixed types
	Messages  []*message     // events, then commands, in file order
	Streams   []*message     // streams: (Kind streamKind), in file order
	RPCs      []*rpc         // request/reply, in file order
	Library   bool           // a type library: types only, no exchange, no messages
	Dir       string         // slash-separated directory of the source, for imports
}

// rpc is one request/reply pair served on one owning queue.
type rpc struct {
	Pos        Pos
	Name       string
	Doc        string
	Deprecated string
	Queue      string
	Timeout    time.Duration
	Errors     []*rpcError
	Codec      string
	Encrypted  bool
	Version    int
	QueueSettings
	Request  *recordModel // <Name>Request
	Response *recordModel // <Name>Response
}

// rpcError is a declared failure of an RPC.
type rpcError struct {
	Pos  Pos
	Name string // UpperCamel; the Go variable is Err<Name>
}

// messageKind tells events from commands (and, later, RPC requests and responses).
type messageKind int

const (
	// eventKind is a fact published to the domain's topic exchange.
	eventKind messageKind = iota
	// commandKind is a request to act, consumed from one owning queue.
	commandKind
	// streamKind is a record appended to a stream, an append-only log
	// (RabbitMQ queue type stream) every reader can replay.
	streamKind
)

// String names the kind in lower case.
func (k messageKind) String() string {
	switch k {
	case commandKind:
		return "command"
	case streamKind:
		return "stream"
	}
	return "event"
}

// message is one event or command with everything its publisher and consumer need.
type message struct {
	Kind           messageKind
	Pos            Pos
	Name           string
	Doc            string
	Deprecated     string
	RoutingKey     string
	Queue          string // commands only; a stream's name (its queue's)
	Subject        string // registry subject (avro-registered)
	Codec          string
	Encrypted      bool
	Mandatory      bool   // its publisher fails a message that reaches no queue: every command, an event that says so
	Schedulable    bool   // its publisher can schedule it: Publish<Event>After/At, Send<Command>After/At
	ScheduleLadder string // the file's schedule-ladder: classic (default) or quorum
	Version        int
	QueueSettings  // of the queues it is consumed from: a command's, each subscriber's of an event
	Retry          retry
	Headers        []*header
	Retention      retention    // streams only
	Record         *recordModel // the payload
}

// retention is how long a stream keeps its records (FAMILY-SPEC §1.13):
// x-max-age, x-max-length-bytes, x-stream-max-segment-size-bytes; each
// zero is unset.
type retention struct {
	MaxAge                 time.Duration
	MaxBytes, SegmentBytes int64
}

// retry is a consumer's retry policy.
type retry struct {
	Attempts int
	Backoff  string // exponential | fixed
	Initial  time.Duration
	Max      time.Duration // exponential only
	MaxAge   time.Duration // 0: no limit
}

// header is a typed application header of a message.
type header struct {
	Pos      Pos
	Name     string
	GoName   string // the part after "Header" in the option's name
	Type     string // boolean, int, long, double or string
	Typed    bool   // the contract declared Type; otherwise Type is string and values go unchecked
	Doc      string
	Required bool
}

// shape tells records, enums and fixed types apart.
type shape int

const (
	// recordShape is an Avro record: a Go struct.
	recordShape shape = iota
	// enumShape is an Avro enum: a Go string type with constants.
	enumShape
	// fixedShape is an Avro fixed: a Go byte array.
	fixedShape
)

// recordModel is a named type: a record, enum or fixed of types:, a message
// payload, or a fixed type written inline in a field.
type recordModel struct {
	Pos         Pos
	Shape       shape
	Name        string
	FullName    string // Avro full name: namespace.Name
	Doc         string
	Deprecated  string
	Fields      []*field
	Symbols     []string // EnumShape
	EnumDefault string   // EnumShape; "" when none
	Size        int      // FixedShape
	Aliases     []string
	Owner       *domain    // the package that declares the Go type
	Avro        schemas    // set once the domain validated without errors
	XML         bool       // an xml payload reaches it: its fields get xml tags
	Go          *goBinding // types: with go:, the existing Go type used instead of a generated one
}

// goBinding is the Go type a record, enum or fixed type of types: is bound
// to (go: example.com/shared/money.Amount): no type is generated for it and
// the named one is used wherever the contract uses the type.
type goBinding struct {
	Pos  Pos    // of the go: key
	Path string // the import path: example.com/shared/money
	Name string // the exported type name: Amount
	// Package is the package's name, once go/packages loaded it (its import
	// is registered under it); "" before.
	Package string
}

// String is the binding as the contract writes it.
func (b *goBinding) String() string { return b.Path + "." + b.Name }

// field is one field of a record.
type field struct {
	Pos        Pos
	Name       string // the wire name
	GoName     string
	Doc        string
	Deprecated string
	Type       *typ
	Default    any // the Avro default as JSON; meaningful when HasDefault
	HasDefault bool
	Aliases    []string
}

// typeKind is the shape of a resolved type.
type typeKind int

const (
	// primitiveKind is boolean, int, long, float, double, string, bytes or a logical type.
	primitiveKind typeKind = iota
	// namedKind is a record of types:.
	namedKind
	// optionalKind is T?.
	optionalKind
	// arrayKind is [T].
	arrayKind
	// mapKind is {map: T}.
	mapKind
	// decimalKind is decimal(P,S): Avro bytes with logical type decimal, *big.Rat.
	decimalKind
	// unionKind is {union: [A, B, ...]}: a sealed Go interface, one wrapper type per branch.
	unionKind
)

// typ is a resolved field type.
type typ struct {
	Kind             typeKind
	Prim             string       // Primitive: its YAML name
	Record           *recordModel // Named
	Elem             *typ         // Optional, Array, Map
	Precision, Scale int          // Decimal
	Branches         []*typ       // Union, without null
	Nullable         bool         // Union: null is a branch (first, as Avro defaults need)
	Iface            string       // Union: the Go interface's name
}
