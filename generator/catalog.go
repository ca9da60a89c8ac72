package generator

import (
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemqimpl"
)

// Entry is what operations tools need to know of one message a contract
// describes, without generated code: where it travels, how it is encoded and
// how its consumers retry. The CLI's dlq and plan commands read it.
type Entry struct {
	// Kind is "event", "command", "rpc" or "stream".
	Kind string
	// Domain is the contract's domain, which is also its topic exchange.
	Domain string
	// Name is the message's (or the RPC's) name, UpperCamel.
	Name string
	// Exchange is the topic exchange an event or command is published to;
	// "" for an RPC, whose requests go through the default exchange.
	Exchange string
	// RoutingKey is an event's or command's key on Exchange; "" for an RPC.
	RoutingKey string
	// Queue is a command's owning queue, an RPC's request queue or a
	// stream's name (its queue's, where records are appended through the
	// default exchange with it as the routing key); "" for
	// an event, which each subscribing service consumes on its own queue
	// (acemqimpl.SubscriberQueue(service, RoutingKey)).
	Queue string
	// Type is the envelope type its messages carry (x-acemq-type): the
	// routing key of an event or command, the queue of an RPC request.
	Type string
	// Codec is the codec's name, one of CodecNames.
	Codec string
	// Raw is the YAML type of the one value a raw codec's message carries
	// ("string" for text, "bytes" for bytes); "" for a record codec.
	Raw string
	// Encrypted says the codec's bytes are sealed (runtime/crypto).
	Encrypted bool
	// Subject is the registry subject of a message whose codec registers
	// its schema (avro-registered); "" for other codecs.
	Subject string
	// AvroSchema is the payload's Avro schema as the codec writes it
	// (canonical form) and AvroFullSchema the contract's full schema, the
	// reader schema of avro-registered consumers; both "" for other codecs.
	AvroSchema, AvroFullSchema string
	// Retry is the consumers' retry policy (events and commands).
	Retry Retry
	// Version is an event's or command's schema version as its
	// specification holds it: 0 for version 1 (both publish without one).
	Version int
	// Headers are an event's or command's header rules: its headers that
	// are required or typed, in contract order.
	Headers []acemq.HeaderRule
	// Mandatory says an event's or command's publisher fails a message that
	// reaches no queue.
	Mandatory bool
	// Schedulable says an event's or command's publisher can schedule it
	// (the contract's schedulable: true), so the schedule ladder is part of
	// the topology.
	Schedulable bool
	// ScheduleLadder is the type of the schedule ladder's queues the
	// contract declares (its schedule-ladder: "classic", the default, or
	// "quorum").
	ScheduleLadder string
	// Timeout is how long an RPC's call waits at most; Errors are the names
	// of its declared errors.
	Timeout time.Duration
	Errors  []string
	// Queues is what the contract says of the queues the message (an rpc's
	// requests) is consumed from.
	Queues QueueSettings
	// Doc and Deprecated are the contract's words on the message (an RPC);
	// ContentType is what its codec writes in the AMQP content-type
	// property. Payload is its payload's record (an RPC's request), nil for
	// a raw codec's; Response is an RPC's response record. Example is a
	// JSON example of the payload (the request) made from its types.
	// CatalogContents fills them; Catalog leaves them empty.
	Doc, Deprecated, ContentType string
	Payload, Response            *Type
	Example                      string
	// Retention is a stream's retention; zero for other kinds.
	Retention StreamRetention
}

// StreamRetention is how long a stream keeps its records (x-max-age,
// x-max-length-bytes, x-stream-max-segment-size-bytes); each zero is unset.
type StreamRetention struct {
	MaxAge                 time.Duration
	MaxBytes, SegmentBytes int64
}

// Retry is a contract's retry policy: the run-time value itself
// (acemqimpl.Retry), whose Policy is the generated specification's.
type Retry = acemqimpl.Retry

// Catalog returns every message, RPC and stream of the contracts in srcs,
// domain by domain in package order, events and commands in file order,
// then RPCs, then streams.
// When the contracts have errors it returns none and the diagnostics. Safe
// for concurrent use.
func Catalog(srcs []Source) (entries []Entry, ds Diagnostics) {
	defer recoverInternal(&ds)
	m, ds := build(srcs)
	if ds.HasErrors() {
		return nil, ds.Errors()
	}
	for _, d := range m.Domains {
		for _, msg := range d.Messages {
			entries = append(entries, messageEntry(d, msg))
		}
		for _, r := range d.RPCs {
			entries = append(entries, rpcEntry(d, r))
		}
		for _, s := range d.Streams {
			entries = append(entries, streamEntry(d, s))
		}
	}
	return entries, nil
}

func messageEntry(d *domain, m *message) Entry {
	e := Entry{Kind: m.Kind.String(), Domain: d.Name, Name: m.Name, Exchange: d.Name, RoutingKey: m.RoutingKey,
		Queue: m.Queue, Type: m.RoutingKey, Codec: m.Codec, Raw: rawOf(m.Codec), Encrypted: m.Encrypted,
		Retry: Retry{Attempts: m.Retry.Attempts, Backoff: m.Retry.Backoff, Initial: m.Retry.Initial,
			Max: m.Retry.Max, MaxAge: m.Retry.MaxAge}, Version: specVersion(m), Mandatory: m.Mandatory, Schedulable: m.Schedulable,
		ScheduleLadder: m.ScheduleLadder, Queues: m.QueueSettings}
	for _, h := range ruledHeaders(m) {
		rule := acemq.HeaderRule{Name: h.Name, Required: h.Required}
		if h.Typed {
			rule.Type = acemq.HeaderValueType(h.Type)
		}
		e.Headers = append(e.Headers, rule)
	}
	if c, _ := codecNamed(m.Codec); c.registry {
		e.Subject = m.Subject
	}
	if isAvro(m.Codec) && m.Record != nil {
		e.AvroSchema, e.AvroFullSchema = m.Record.Avro.Canonical, m.Record.Avro.Full
	}
	return e
}

// streamEntry is a stream's entry: a message's, through the default
// exchange to the stream, with no retry policy and the stream's retention.
func streamEntry(d *domain, m *message) Entry {
	e := messageEntry(d, m)
	e.Exchange, e.Retry = "", Retry{}
	e.Retention = StreamRetention(m.Retention)
	return e
}

func rpcEntry(d *domain, r *rpc) Entry {
	e := Entry{Kind: "rpc", Domain: d.Name, Name: r.Name, Queue: r.Queue, Type: r.Queue, Codec: r.Codec,
		Raw: rawOf(r.Codec), Encrypted: r.Encrypted, Timeout: r.Timeout, Queues: r.QueueSettings}
	for _, x := range r.Errors {
		e.Errors = append(e.Errors, x.Name)
	}
	return e
}

// rawOf is the codec table's raw type of codec.
func rawOf(codec string) string {
	c, _ := codecNamed(codec)
	return c.raw
}
