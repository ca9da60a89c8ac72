package generator

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// asyncapiJSON generates a golden case's document of domain as JSON and
// decodes it.
func asyncapiJSON(t *testing.T, name, domain string, opts ...AsyncAPIOption) map[string]any {
	t.Helper()
	res := AsyncAPI(caseSources(t, filepath.Join(goldenDir, name)), append(opts, AsyncAPIFormat("json"))...)
	if len(res.Diagnostics) > 0 {
		t.Fatalf("diagnostics: %v", res.Diagnostics)
	}
	for _, f := range res.Files {
		if f.Path == domain+".asyncapi.json" {
			var doc map[string]any
			must(t, json.Unmarshal(f.Data, &doc))
			return doc
		}
	}
	t.Fatalf("no document for %s among %d files", domain, len(res.Files))
	return nil
}

// at walks a decoded document along keys.
func at(t *testing.T, v any, keys ...string) any {
	t.Helper()
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("%s: not an object at %q", strings.Join(keys, "."), k)
		}
		v = m[k]
	}
	return v
}

func TestAsyncAPIRPCRepliesThroughDirectReplyToWithCorrelationID(t *testing.T) {
	doc := asyncapiJSON(t, "rpc", "orders")
	op := at(t, doc, "operations", "serveGetOrderSummary")
	if at(t, op, "action") != "receive" {
		t.Fatalf("action %v, want receive", at(t, op, "action"))
	}
	if got := at(t, op, "reply", "address", "location"); got != "$message.header#/reply_to" {
		t.Errorf("reply address %v", got)
	}
	if !strings.Contains(at(t, op, "reply", "address", "description").(string), "amq.rabbitmq.reply-to") {
		t.Error("the reply address does not name direct reply-to")
	}
	if got := at(t, doc, "components", "messages", "GetOrderSummaryResponse", "correlationId", "location"); got != "$message.header#/correlation_id" {
		t.Errorf("correlationId location %v", got)
	}
	if got := at(t, doc, "channels", "GetOrderSummary", "bindings", "amqp", "queue", "name"); got != "orders.get-order-summary" {
		t.Errorf("rpc queue %v", got)
	}
}

func TestAsyncAPIAvroPayloadWritesNameAndNamespaceApart(t *testing.T) {
	doc := asyncapiJSON(t, "codec_avro", "telemetry")
	payload := at(t, doc, "components", "messages", "ReadingTaken", "payload")
	if at(t, payload, "schemaFormat") != "application/vnd.apache.avro;version=1.9.0" {
		t.Errorf("schemaFormat %v", at(t, payload, "schemaFormat"))
	}
	if at(t, payload, "schema", "name") != "ReadingTaken" || at(t, payload, "schema", "namespace") != "com.acme.telemetry" {
		t.Errorf("name %v namespace %v", at(t, payload, "schema", "name"), at(t, payload, "schema", "namespace"))
	}
}

func TestAsyncAPIMandatoryFollowsTheRuntime(t *testing.T) {
	doc := asyncapiJSON(t, "mandatory", "alerts")
	for op, want := range map[string]bool{"sendAlarmRaised": true, "sendAlarmCleared": false, "sendAlarmNoted": false, "receiveSilenceAlarm": true} {
		b := at(t, doc, "operations", op, "bindings", "amqp")
		if b == nil {
			t.Fatalf("no operation %s", op)
		}
		if at(t, b, "mandatory") != want || at(t, b, "deliveryMode") != float64(2) {
			t.Errorf("%s: binding %v, want mandatory %v and deliveryMode 2", op, b, want)
		}
	}
}

func TestAsyncAPIHeadersHoldEnvelopeAndRequiredContractHeaders(t *testing.T) {
	doc := asyncapiJSON(t, "headers", "orders")
	h := at(t, doc, "components", "messages", "OrderPlaced", "headers")
	if at(t, h, "properties", "x-acemq-id", "type") != "string" || at(t, h, "properties", "x-priority", "format") != "int32" {
		t.Errorf("headers %v", h)
	}
	req := map[string]bool{}
	for _, r := range at(t, h, "required").([]any) {
		req[r.(string)] = true
	}
	if !req["x-tenant"] || !req["x-origin"] || req["x-priority"] || !req["x-acemq-id"] {
		t.Errorf("required %v", req)
	}
}

func TestAsyncAPIRetryAndDeadLetterAreExtensions(t *testing.T) {
	doc := asyncapiJSON(t, "retry_policies", "orders")
	if got := at(t, doc, "components", "messages", "OrderPaid", "x-acemq-retry", "backoff"); got != "fixed" {
		t.Errorf("retry backoff %v", got)
	}
	if got := at(t, doc, "channels", "CancelOrder", "x-acemq-dead-letter", "queue"); got != "orders.cancel-order.dlq" {
		t.Errorf("dead-letter queue %v", got)
	}
}

func TestAsyncAPIServerOnlyWhenGiven(t *testing.T) {
	if doc := asyncapiJSON(t, "rpc", "orders"); doc["servers"] != nil {
		t.Errorf("servers without --server: %v", doc["servers"])
	}
	doc := asyncapiJSON(t, "rpc", "orders", AsyncAPIServer("prod", "amqps://rabbit.example.com:5671/shop"))
	if at(t, doc, "servers", "prod", "host") != "rabbit.example.com:5671" || at(t, doc, "servers", "prod", "pathname") != "/shop" {
		t.Errorf("servers %v", doc["servers"])
	}
}

func TestAsyncAPIRefusesABadFormatOrServer(t *testing.T) {
	srcs := caseSources(t, filepath.Join(goldenDir, "rpc"))
	for _, opt := range []AsyncAPIOption{AsyncAPIFormat("xml"), AsyncAPIServer("prod", "http://x"), AsyncAPIServer("", "amqp://x")} {
		if res := AsyncAPI(srcs, opt); !res.Diagnostics.HasErrors() || len(res.Files) > 0 {
			t.Errorf("no error: %v", res.Diagnostics)
		}
	}
}

func TestAsyncAPIOutputIsDeterministic(t *testing.T) {
	srcs := caseSources(t, filepath.Join(goldenDir, "contracts_example"))
	a, b := AsyncAPI(srcs), AsyncAPI(append(srcs[1:], srcs[0]))
	if len(a.Files) == 0 || len(a.Files) != len(b.Files) {
		t.Fatalf("%d and %d files", len(a.Files), len(b.Files))
	}
	for i := range a.Files {
		if string(a.Files[i].Data) != string(b.Files[i].Data) {
			t.Errorf("%s differs between runs", a.Files[i].Path)
		}
	}
}
