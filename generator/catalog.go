package generator

import "time"

// Entry is what operations tools need to know of one message a contract
// describes, without generated code: where it travels, how it is encoded and
// how its consumers retry. The CLI's dlq and plan commands read it.
type Entry struct {
	// Kind is "event", "command" or "rpc".
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
	// Queue is a command's owning queue or an RPC's request queue; "" for
	// an event, which each subscribing service consumes on its own queue
	// (acemq.SubscriberQueue(service, RoutingKey)).
	Queue string
	// Type is the envelope type its messages carry (x-acemq-type): the
	// routing key of an event or command, the queue of an RPC request.
	Type string
	// Codec is the codec's name: json, avro, avro-registered, text, bytes,
	// yaml or toml.
	Codec string
	// Encrypted says the codec's bytes are sealed (runtime/crypto).
	Encrypted bool
	// Subject is an avro-registered message's registry subject.
	Subject string
	// AvroSchema is the payload's Avro schema as the codec writes it
	// (canonical form) and AvroFullSchema the contract's full schema, the
	// reader schema of avro-registered consumers; both "" for other codecs.
	AvroSchema, AvroFullSchema string
	// Retry is the consumers' retry policy (events and commands).
	Retry Retry
	// Queues is what the contract says of the queues the message (an rpc's
	// requests) is consumed from.
	Queues QueueSettings
}

// Retry is a contract's retry policy, as acemq.ExponentialRetry or
// acemq.FixedRetry (then GiveUpAfter) take it.
type Retry struct {
	Attempts int
	// Backoff is "exponential" or "fixed".
	Backoff      string
	Initial, Max time.Duration
	MaxAge       time.Duration // 0: none
}

// Catalog returns every message and RPC of the contracts in srcs, domain by
// domain in package order, events and commands in file order, then RPCs.
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
			entries = append(entries, Entry{Kind: "rpc", Domain: d.Name, Name: r.Name, Queue: r.Queue,
				Type: r.Queue, Codec: r.Codec, Encrypted: r.Encrypted, Queues: r.QueueSettings})
		}
	}
	return entries, nil
}

func messageEntry(d *domain, m *message) Entry {
	e := Entry{Kind: m.Kind.String(), Domain: d.Name, Name: m.Name, Exchange: d.Name, RoutingKey: m.RoutingKey,
		Queue: m.Queue, Type: m.RoutingKey, Codec: m.Codec, Encrypted: m.Encrypted, Subject: m.Subject,
		Retry: Retry{Attempts: m.Retry.Attempts, Backoff: m.Retry.Backoff, Initial: m.Retry.Initial,
			Max: m.Retry.Max, MaxAge: m.Retry.MaxAge}, Queues: m.QueueSettings}
	if isAvro(m.Codec) && m.Record != nil {
		e.AvroSchema, e.AvroFullSchema = m.Record.Avro.Canonical, m.Record.Avro.Full
	}
	return e
}
