package generator

import (
	"net/url"
	"strconv"
	"strings"
	"time"
)

// The AsyncAPI document of one domain, as ordered objects: channels,
// operations and components in the contract's order (events, commands, then
// RPCs), every key in a fixed order.

const (
	asyncapiVersion    = "3.0.0"
	amqpBindingVersion = "0.3.0"
	avroSchemaFormat   = "application/vnd.apache.avro;version=1.9.0"
	// directReplyTo is the pseudo-queue a requester names as its reply-to.
	directReplyTo = "amq.rabbitmq.reply-to"
	// correlationLocation is the AMQP correlation-id property as an AsyncAPI
	// runtime expression.
	correlationLocation = "$message.header#/correlation_id"
	// replyToLocation is the AMQP reply-to property as a runtime expression.
	replyToLocation    = "$message.header#/reply_to"
	deadLetterExchange = "acemq.dlx"
)

// asyncapiDocument is the whole document of dom.
func asyncapiDocument(dom *domain, cfg asyncapiConfig) object {
	b := &docBuilder{dom: dom, schemas: &jsonSchemas{}}
	for _, m := range dom.Messages {
		b.message(m)
	}
	for _, r := range dom.RPCs {
		b.rpc(r)
	}
	for _, m := range dom.Streams {
		b.stream(m)
	}
	doc := object{{"asyncapi", asyncapiVersion}, {"info", b.info()}}
	if len(cfg.servers) > 0 {
		doc = append(doc, member{"servers", servers(cfg.servers)})
	}
	doc = append(doc, member{"defaultContentType", contentType(defaultCodec(dom))},
		member{"channels", b.channels}, member{"operations", b.operations})
	comps := object{}
	if len(b.schemas.defs) > 0 {
		comps = append(comps, member{"schemas", b.schemas.defs})
	}
	return append(doc, member{"components", append(comps, member{"messages", b.messages})})
}

// docBuilder collects the channels, operations and messages of a domain.
type docBuilder struct {
	dom        *domain
	channels   object
	operations object
	messages   object
	schemas    *jsonSchemas
}

func (b *docBuilder) info() object {
	o := object{{"title", b.dom.Name}, {"version", strconv.Itoa(b.version())}}
	if b.dom.Doc != "" {
		o = append(o, member{"description", b.dom.Doc})
	}
	return append(o, member{"x-acemq-package", b.dom.Package})
}

// version is the highest version of the domain's messages and RPCs (1 when
// none says otherwise).
func (b *docBuilder) version() int {
	v := 1
	for _, m := range payloads(b.dom) {
		v = max(v, m.Version)
	}
	for _, r := range b.dom.RPCs {
		v = max(v, r.Version)
	}
	return v
}

// defaultCodec is the codec most of the domain's messages use, the first in
// file order on a tie; json for a domain without messages.
func defaultCodec(dom *domain) string {
	var order []string
	counts := map[string]int{}
	add := func(c string) {
		if counts[c] == 0 {
			order = append(order, c)
		}
		counts[c]++
	}
	for _, m := range payloads(dom) {
		add(wireCodec(m.Codec, m.Encrypted))
	}
	for _, r := range dom.RPCs {
		add(wireCodec(r.Codec, r.Encrypted))
	}
	best := codecJSON
	for _, c := range order {
		if counts[c] > counts[best] {
			best = c
		}
	}
	return best
}

// wireCodec is the codec whose content type travels: the encrypted codec
// hides the inner one.
func wireCodec(codec string, encrypted bool) string {
	if encrypted {
		return encryptedCodec.name
	}
	return codec
}

// contentType is what a codec writes in the AMQP content-type property
// (FAMILY-SPEC §3).
func contentType(codec string) string {
	if c, ok := codecNamed(codec); ok {
		return c.contentType
	}
	return "application/json"
}

func servers(ss []asyncapiServer) object {
	o := object{}
	for _, s := range ss {
		u, _ := url.Parse(s.url) // checked by asyncapiConfig.check
		srv := object{{"host", u.Host}, {"protocol", u.Scheme}}
		if vhost := strings.TrimPrefix(u.Path, "/"); vhost != "" {
			srv = append(srv, member{"pathname", "/" + vhost})
		}
		o = append(o, member{s.name, srv})
	}
	return o
}

// message adds an event's or a command's channel, operation and message.
func (b *docBuilder) message(m *message) {
	ch := object{{"address", m.RoutingKey}}
	if m.Kind == commandKind {
		ch[0].val = m.Queue
	}
	if m.Doc != "" {
		ch = append(ch, member{"description", m.Doc})
	}
	ch = append(ch, member{"messages", object{{m.Name, ref("#/components/messages/" + m.Name)}}})
	if m.Kind == commandKind {
		ch = append(ch, member{"bindings", queueBinding(m.Queue)},
			member{"x-acemq-exchange", b.dom.Name}, member{"x-acemq-routing-key", m.RoutingKey},
			member{"x-acemq-dead-letter", deadLetter(m.Queue)})
	} else {
		ch = append(ch, member{"bindings", b.exchangeBinding()})
	}
	ch = appendQueueExtensions(ch, m.QueueSettings)
	b.channels = append(b.channels, member{m.Name, ch})
	b.operations = append(b.operations, member{operationID(m), b.operation(m)})
	b.messages = append(b.messages, member{m.Name, b.messageObject(m)})
}

func operationID(m *message) string {
	if m.Kind == commandKind {
		return "receive" + m.Name
	}
	return "send" + m.Name
}

// operation is the owner's send of an event or receive of a command.
func (b *docBuilder) operation(m *message) object {
	action, what := "send", "Publishes the event "+m.Name+" to the exchange "+b.dom.Name+"."
	if m.Kind == commandKind {
		action, what = "receive", "Consumes the command "+m.Name+" from the queue "+m.Queue+"."
	}
	o := object{{"action", action}, {"channel", ref("#/channels/" + m.Name)},
		{"summary", what},
		{"messages", []any{ref("#/channels/" + m.Name + "/messages/" + m.Name)}},
		{"bindings", operationBinding(m.Mandatory, action == "receive")}}
	if m.Schedulable {
		o = append(o, member{"x-acemq-schedulable", true})
	}
	return o
}

func (b *docBuilder) messageObject(m *message) object {
	o := object{{"name", m.Name}, {"title", m.Name}}
	if m.Doc != "" {
		o = append(o, member{"description", m.Doc})
	}
	o = append(o, member{"contentType", contentType(wireCodec(m.Codec, m.Encrypted))},
		member{"headers", envelopeHeaders(m.RoutingKey, m.Version, m.Headers, nil)},
		member{"payload", b.payload(m.Record, m.Codec)})
	o = appendDeprecated(o, m.Deprecated)
	o = append(o, member{"x-acemq-kind", m.Kind.String()}, member{"x-acemq-version", m.Version},
		member{"x-acemq-codec", m.Codec})
	if m.Encrypted {
		o = append(o, member{"x-acemq-encrypted", object{{"contentType", contentType(m.Codec)}}})
	}
	if m.Codec == codecAvroRegistered {
		o = append(o, member{"x-acemq-subject", m.Subject})
	}
	if m.Kind == streamKind {
		return o // a stream's readers do not retry in a queue of their own
	}
	return append(o, member{"x-acemq-retry", retryPolicy(m.Retry)})
}

// appendDeprecated marks a deprecated message, keeping the contract's reason.
func appendDeprecated(o object, reason string) object {
	if reason == "" {
		return o
	}
	return append(o, member{"deprecated", true}, member{"x-acemq-deprecated", reason})
}

// rpc adds an RPC's request channel, its reply channel, its receive
// operation with the reply object, and its request and response messages.
func (b *docBuilder) rpc(r *rpc) {
	req, resp, reply := r.Name+"Request", r.Name+"Response", r.Name+"Reply"
	ch := object{{"address", r.Queue}}
	if r.Doc != "" {
		ch = append(ch, member{"description", r.Doc})
	}
	ch = append(ch, member{"messages", object{{req, ref("#/components/messages/" + req)}}},
		member{"bindings", queueBinding(r.Queue)}, member{"x-acemq-dead-letter", deadLetter(r.Queue)})
	ch = appendQueueExtensions(ch, r.QueueSettings)
	b.channels = append(b.channels, member{r.Name, ch},
		member{reply, object{{"address", nil},
			{"description", "The requester's reply address, read from the request's AMQP reply-to property: RabbitMQ direct reply-to (" + directReplyTo + ") unless the requester names a queue."},
			{"messages", object{{resp, ref("#/components/messages/" + resp)}}}}})
	b.operations = append(b.operations, member{"serve" + r.Name, b.rpcOperation(r, req, resp, reply)})
	b.messages = append(b.messages, member{req, b.rpcMessage(r, r.Request, req, true)},
		member{resp, b.rpcMessage(r, r.Response, resp, false)})
}

func (b *docBuilder) rpcOperation(r *rpc, req, resp, reply string) object {
	o := object{{"action", "receive"}, {"channel", ref("#/channels/" + r.Name)},
		{"summary", "Serves the RPC " + r.Name + " from the queue " + r.Queue + " and replies to the requester."},
		{"messages", []any{ref("#/channels/" + r.Name + "/messages/" + req)}},
		{"reply", object{
			{"address", object{{"location", replyToLocation},
				{"description", "The request's AMQP reply-to property: " + directReplyTo + " (RabbitMQ direct reply-to) by default."}}},
			{"channel", ref("#/channels/" + reply)},
			{"messages", []any{ref("#/channels/" + reply + "/messages/" + resp)}}}},
		{"bindings", operationBinding(true, true)},
		{"x-acemq-timeout", r.Timeout.String()}}
	if len(r.Errors) > 0 {
		var names []string
		for _, e := range r.Errors {
			names = append(names, e.Name)
		}
		o = append(o, member{"x-acemq-errors", names})
	}
	return o
}

func (b *docBuilder) rpcMessage(r *rpc, rec *recordModel, name string, request bool) object {
	o := object{{"name", name}, {"title", name}}
	if rec.Doc != "" {
		o = append(o, member{"description", rec.Doc})
	} else if request && r.Doc != "" {
		o = append(o, member{"description", r.Doc})
	}
	o = append(o, member{"contentType", contentType(wireCodec(r.Codec, r.Encrypted))},
		member{"headers", envelopeHeaders("", r.Version, nil, rpcHeaders(request))},
		member{"payload", b.payload(rec, r.Codec)},
		member{"correlationId", object{{"description", "The AMQP correlation-id property: the request's, copied onto its reply."},
			{"location", correlationLocation}}})
	o = appendDeprecated(o, r.Deprecated)
	kind := "rpc-response"
	if request {
		kind = "rpc-request"
	}
	o = append(o, member{"x-acemq-kind", kind}, member{"x-acemq-version", r.Version}, member{"x-acemq-codec", r.Codec})
	if r.Encrypted {
		o = append(o, member{"x-acemq-encrypted", object{{"contentType", contentType(r.Codec)}}})
	}
	return o
}

// ref is a Reference Object.
func ref(to string) object { return object{{"$ref", to}} }

// exchangeBinding is the AMQP channel binding of an event: the routing key
// on the domain's durable topic exchange.
func (b *docBuilder) exchangeBinding() object {
	return object{{"amqp", object{{"is", "routingKey"},
		{"exchange", object{{"name", b.dom.Name}, {"type", "topic"}, {"durable", true}, {"autoDelete", false}, {"vhost", "/"}}},
		{"bindingVersion", amqpBindingVersion}}}}
}

// queueBinding is the AMQP channel binding of an owned queue (a command's or
// an RPC's): durable, shared, never deleted.
func queueBinding(queue string) object {
	return object{{"amqp", object{{"is", "queue"},
		{"queue", object{{"name", queue}, {"durable", true}, {"exclusive", false}, {"autoDelete", false}, {"vhost", "/"}}},
		{"bindingVersion", amqpBindingVersion}}}}
}

// operationBinding is the AMQP operation binding: persistent delivery,
// mandatory when the runtime publishes mandatory, acknowledged by a consumer.
func operationBinding(mandatory, receive bool) object {
	o := object{{"deliveryMode", 2}, {"mandatory", mandatory}}
	if receive {
		o = append(o, member{"ack", true})
	}
	return object{{"amqp", append(o, member{"bindingVersion", amqpBindingVersion})}}
}

// appendQueueExtensions adds what the contract says of the queues a message
// is consumed from (a command's or an RPC's queue, an event's subscriber
// queues): x-delivery-limit, the leader locator, at-least-once
// dead-lettering and the set-aside queues' type, each only when set.
func appendQueueExtensions(ch object, q QueueSettings) object {
	for _, k := range queueKeyTable {
		if v := k.value(q); v != nil {
			ch = append(ch, member{"x-acemq-" + k.name, v})
		}
	}
	return ch
}

// deadLetter names where an owned queue's failures go (FAMILY-SPEC §2.4).
func deadLetter(queue string) object {
	return object{{"exchange", deadLetterExchange}, {"queue", queue + ".dlq"}, {"parked", queue + ".parked"}}
}

// retryPolicy is a consumer's retry policy as the contract states it.
func retryPolicy(r retry) object {
	o := object{{"attempts", r.Attempts}, {"backoff", r.Backoff}, {"initial", durationText(r.Initial)}}
	if r.Backoff == "exponential" && r.Max > 0 {
		o = append(o, member{"max", durationText(r.Max)})
	}
	if r.MaxAge > 0 {
		o = append(o, member{"maxAge", durationText(r.MaxAge)})
	}
	return o
}

func durationText(d time.Duration) string { return d.String() }
