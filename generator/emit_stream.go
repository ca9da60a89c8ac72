package generator

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"
)

// streams writes, per stream, its name constant, its specification
// (acemqimpl.StreamSpec), Read<Stream> and Declare<Stream>; the Publisher's
// Append methods are written with the Publisher (appendMethods).
func (e *emitter) streams() {
	for _, m := range e.dom.Streams {
		e.commentf("%s is the name of stream %s, which is also its queue's.", streamName(m), m.Name)
		e.f.Const().Id(streamName(m)).Op("=").Lit(m.Queue)
		e.streamSpec(m)
		e.readStream(m)
		e.declareStream(m)
	}
}

func (e *emitter) streamSpec(m *message) {
	e.comment(fmt.Sprintf("%s is the contract of stream %s: %s.", specVar(m.Name), m.Name, streamSummary(m)), "", "")
	fields := []jen.Code{
		jen.Id("Stream").Op(":").Id(streamName(m)),
		jen.Id("Codec").Op(":").Add(messageCodec(m).builder()),
	}
	if v := specVersion(m); v != 0 {
		fields = append(fields, jen.Id("Version").Op(":").Lit(v))
	}
	fields = appendHeaderRules(fields, m)
	fields = append(fields, retentionFields(m.Retention)...)
	e.f.Var().Id(specVar(m.Name)).Op("=").Op("&").Add(impl("StreamSpec")).Types(jen.Id(m.Name)).Add(lines(fields))
}

// retentionFields are a StreamSpec's retention fields, those set.
func retentionFields(r retention) []jen.Code {
	var out []jen.Code
	if r.MaxAge > 0 {
		out = append(out, jen.Id("MaxAge").Op(":").Add(durationCode(r.MaxAge)))
	}
	if r.MaxBytes > 0 {
		out = append(out, jen.Id("MaxBytes").Op(":").Id(strconv.FormatInt(r.MaxBytes, 10)))
	}
	if r.SegmentBytes > 0 {
		out = append(out, jen.Id("SegmentBytes").Op(":").Id(strconv.FormatInt(r.SegmentBytes, 10)))
	}
	return out
}

// streamSummary says what a stream's specification holds, for its doc.
func streamSummary(m *message) string {
	parts := []string{fmt.Sprintf("%s codec", messageCodec(m).describe())}
	if m.Version != 1 {
		parts = append(parts, fmt.Sprintf("schema version %d", m.Version))
	}
	if len(ruledHeaders(m)) > 0 {
		parts = append(parts, ruleSummary(m))
	}
	return strings.Join(append(parts, retentionSummary(m.Retention)), "; ")
}

// retentionSummary describes a stream's retention, for its doc.
func retentionSummary(r retention) string {
	var parts []string
	if r.MaxAge > 0 {
		parts = append(parts, "records older than "+shortDuration(r.MaxAge))
	}
	if r.MaxBytes > 0 {
		parts = append(parts, fmt.Sprintf("beyond %d bytes", r.MaxBytes))
	}
	if len(parts) == 0 {
		return "it keeps every record"
	}
	return "it drops, a segment at a time, " + strings.Join(parts, " and ")
}

func (e *emitter) readStream(m *message) {
	e.comment(fmt.Sprintf("%s reads stream %s from position from (acemq.StreamFirst, StreamNext, StreamLast, "+
		"StreamOffset or StreamSince) and delivers each record to h, with m.Stream holding its offset and "+
		"timestamp. The contract's codec applies; opts come after the contract's options, so they win.",
		readName(m), m.Name), "", m.Deprecated)
	params := []jen.Code{jen.Id("ctx").Qual(contextPath, "Context"), jen.Id("conn").Op("*").Add(qual("Conn")),
		jen.Id("from").Add(qual("StreamPosition")), jen.Id("h").Add(qual("Handler")).Types(jen.Id(m.Name)),
		jen.Id("opts").Op("...").Add(qual("ConsumeOption"))}
	e.f.Func().Id(readName(m)).Params(params...).Add(consumeResults()).Block(
		jen.Return(jen.Id(specVar(m.Name)).Dot("Read").Call(jen.Id("ctx"), jen.Id("conn"), jen.Id("from"),
			jen.Id("h"), jen.Id("opts").Op("..."))))
}

func (e *emitter) declareStream(m *message) {
	e.comment(fmt.Sprintf("%s declares stream %s on conn (a queue of type stream with the contract's retention); "+
		"it is idempotent. DeclareTopology declares it too.", declareName(m), m.Name), "", "")
	e.f.Func().Id(declareName(m)).Params(jen.Id("ctx").Qual(contextPath, "Context"), jen.Id("conn").Op("*").Add(qual("Conn"))).
		Error().Block(jen.Return(jen.Id(specVar(m.Name)).Dot("Apply").Call(jen.Id("ctx"), jen.Id("conn"))))
}

// appendMethods writes the Publisher's Append<Stream> and Append<Stream>Async.
func (e *emitter) appendMethods(m *message) {
	name := publishName(m)
	e.comment(fmt.Sprintf("%s appends m to stream %s and waits for the broker's confirm. Appending to a stream "+
		"that does not exist fails with an error matching acemq.ErrUnroutable.%s", name, m.Name, headerNote(m)), "", m.Deprecated)
	e.f.Func().Params(jen.Id("p").Op("*").Id("Publisher")).Id(name).Params(
		jen.Id("ctx").Qual(contextPath, "Context"), jen.Id("m").Id(m.Name), jen.Id("opts").Op("...").Add(qual("EnvelopeOption")),
	).Error().Block(jen.Return(jen.Id("p").Dot(pubField(m)).Dot("Send").Call(jen.Id("ctx"), jen.Id("m"), jen.Id("opts").Op("..."))))
	e.publishAsync(m)
}
