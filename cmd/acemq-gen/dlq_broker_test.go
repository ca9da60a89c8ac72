package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	dlqop "github.com/acemq/acemq-gen/cmd/acemq-gen/internal/dlq"
	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/ops"
	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/avro"
)

// confluentServer is an in-process schema registry speaking the subset of
// Confluent's REST API that avro.ConfluentRegistry uses to register and
// look up schemas (POST /subjects/{subject}/versions, GET
// /schemas/ids/{id}), backed by an avro.MemoryRegistry. It requires basic
// authentication with user and pass.
func confluentServer(t *testing.T, user, pass string) *httptest.Server {
	t.Helper()
	mem := avro.NewMemoryRegistry()
	mux := http.NewServeMux()
	mux.HandleFunc("POST /subjects/{subject}/versions", func(w http.ResponseWriter, r *http.Request) {
		var req struct{ Schema, SchemaType string }
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			registryReply(w, http.StatusUnprocessableEntity, map[string]any{"error_code": 42201, "message": "Invalid schema"})
			return
		}
		def, err := mem.Register(r.Context(), r.PathValue("subject"), strings.ToLower(req.SchemaType), req.Schema)
		if err != nil {
			registryReply(w, http.StatusUnprocessableEntity, map[string]any{"error_code": 42201, "message": "Invalid schema"})
			return
		}
		registryReply(w, http.StatusOK, map[string]any{"id": def.ID})
	})
	mux.HandleFunc("GET /schemas/ids/{id}", func(w http.ResponseWriter, r *http.Request) {
		id, _ := strconv.Atoi(r.PathValue("id"))
		def, err := mem.ByID(r.Context(), id)
		if err != nil {
			registryReply(w, http.StatusNotFound, map[string]any{"error_code": 40403, "message": "Schema not found"})
			return
		}
		registryReply(w, http.StatusOK, map[string]any{"schema": def.Definition})
	})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if u, p, ok := r.BasicAuth(); !ok || u != user || p != pass {
			registryReply(w, http.StatusUnauthorized, map[string]any{"error_code": 401, "message": "Unauthorized"})
			return
		}
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func registryReply(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", avro.ConfluentContentType)
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

const registeredContract = `acemq: 1
domain: DOMAIN
retry: {attempts: 1, backoff: fixed, initial: 1s}
commands:
  ShipOrder:
    codec: avro-registered
    fields:
      orderId: string
      carrier: {type: string, default: post}
`

// olderWriterSchema is schema (a record's canonical form) as an older
// producer wrote it: without field drop, and with an extra string field add.
func olderWriterSchema(t *testing.T, schema, drop, add string) string {
	t.Helper()
	var rec map[string]any
	if err := json.Unmarshal([]byte(schema), &rec); err != nil {
		t.Fatal(err)
	}
	var fields []any
	for _, f := range rec["fields"].([]any) {
		if f.(map[string]any)["name"] != drop {
			fields = append(fields, f)
		}
	}
	rec["fields"] = append(fields, map[string]any{"name": add, "type": "string"})
	out, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// TestDLQShowsAndRedrivesAvroRegisteredMessagesThroughTheRegistry: messages
// of an avro-registered command, written by an older producer whose
// registered schema lacks a field of the contract's and has one it does not,
// and dead-lettered by the real handler, are listed in their group, shown
// through --registry resolved onto the contract's reader schema, redriven
// selectively by a payload field, and accepted by the fixed handler.
func TestDLQShowsAndRedrivesAvroRegisteredMessagesThroughTheRegistry(t *testing.T) {
	r := newOpsRig(t, registeredContract)
	ctx := context.Background()
	if err := mustTopology(t, r).Apply(ctx, r.conn); err != nil {
		t.Fatal(err)
	}
	ship := r.entry("ShipOrder")
	srv := confluentServer(t, "ops", "registry-secret")
	reg, err := avro.NewConfluentRegistry(srv.URL, avro.WithBasicAuth("ops", "registry-secret"))
	if err != nil {
		t.Fatal(err)
	}
	writer, err := avro.Registered(reg, ship.Subject, olderWriterSchema(t, ship.AvroSchema, "carrier", "legacyNote"))
	if err != nil {
		t.Fatal(err)
	}
	reader, err := avro.Registered(reg, ship.Subject, ship.AvroSchema, avro.ReaderSchema(ship.AvroFullSchema))
	if err != nil {
		t.Fatal(err)
	}
	h := &handlers{}
	r.consume(ship.Queue, h.handle(func(map[string]any) acemq.Ack {
		return acemq.Reject(acemq.Fatalf("the carrier is unknown"))
	}), acemq.ConsumeWith(reader))
	for _, id := range []string{"a1", "a2"} {
		r.send(ship, writer, map[string]any{"orderId": id, "legacyNote": "from v0"})
	}
	dlq := acemq.DeadLetterQueue(ship.Queue)
	r.waitCount(dlq, 2)

	u, _ := url.Parse(srv.URL)
	u.User = url.UserPassword("ops", "registry-secret")
	registry := u.String()

	code, out, errOut := r.cli("dlq", "list", "--url", r.url, "--registry", registry, r.dir)
	if code != exitOK {
		t.Fatalf("dlq list: exit %d: %s", code, errOut)
	}
	want := `command ShipOrder (ship.order) "the handler rejected it: the carrier is unknown" 2 messages, first seen `
	if !strings.Contains(collapse(out), collapse(dlq+"  2 messages")) || !strings.Contains(collapse(out), want) {
		t.Errorf("dlq list lacks the group %q:\n%s", want, out)
	}

	code, out, errOut = r.cli("dlq", "show", "--url", r.url, "--registry", registry, dlq, r.dir)
	if code != exitOK {
		t.Fatalf("dlq show: exit %d: %s", code, errOut)
	}
	var shownMsgs []dlqop.Shown
	if err := json.Unmarshal([]byte(out), &shownMsgs); err != nil {
		t.Fatalf("dlq show printed no JSON array: %v\n%s", err, out)
	}
	if len(shownMsgs) != 2 {
		t.Fatalf("dlq show printed %d messages; want 2:\n%s", len(shownMsgs), out)
	}
	for i, s := range shownMsgs {
		wantPayload := map[string]any{"orderId": fmt.Sprintf("a%d", i+1), "carrier": "post"}
		if got, _ := json.Marshal(s.Payload); !bytes.Equal(got, mustJSON(t, wantPayload)) || s.Note != "" || s.Message != "ShipOrder" {
			t.Errorf("message %d shown as %s (note %q); want payload %s, resolved onto the contract's schema", i, got, s.Note, mustJSON(t, wantPayload))
		}
	}
	if strings.Contains(out+errOut, "registry-secret") {
		t.Error("dlq show printed the registry's password")
	}

	code, out, _ = r.cli("dlq", "show", "--url", r.url, dlq, r.dir)
	if code != exitOK || !strings.Contains(out, "give --registry URL to read it") || strings.Contains(out, `"payload"`) {
		t.Errorf("dlq show without --registry: exit %d; want each message as bytes with a note naming --registry:\n%s", code, out)
	}

	h.fix()
	code, out, errOut = r.cli("dlq", "redrive", "--url", r.url, "--registry", registry, "--where", "orderId=a2", dlq, r.dir)
	if code != exitOK || !strings.Contains(out, "moved 1 in all") {
		t.Fatalf("redrive --where orderId=a2: exit %d: %s%s", code, out, errOut)
	}
	waitAccepted(t, h, 1)
	r.waitCount(dlq, 1)
	code, out, errOut = r.cli("dlq", "redrive", "--url", r.url, "--registry", registry, dlq, r.dir)
	if code != exitOK || !strings.Contains(out, "moved 1 in all") {
		t.Fatalf("redrive the rest: exit %d: %s%s", code, out, errOut)
	}
	waitAccepted(t, h, 2)
	r.waitCount(dlq, 0)
	h.mu.Lock()
	defer h.mu.Unlock()
	for i, id := range []string{"a2", "a1"} {
		p, env := h.payloads[i], h.accepted[i]
		if p["orderId"] != id || p["carrier"] != "post" || p["legacyNote"] != nil || env.Attempt != 1 {
			t.Errorf("the fixed handler's message %d: payload %v attempt %d; want orderId %s, carrier post, no legacyNote, attempt 1", i, p, env.Attempt, id)
		}
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestAnInterruptedRedriveLeavesEveryMessageInExactlyOnePlace: a paced
// redrive of 500 dead-lettered messages, cancelled halfway, leaves each
// message either on the dead-letter queue or with the fixed handler, never
// both and never neither; a second redrive moves the rest, and the handler
// sees every id exactly once.
func TestAnInterruptedRedriveLeavesEveryMessageInExactlyOnePlace(t *testing.T) {
	const n = 500
	r := newOpsRig(t, dlqContract)
	ctx := context.Background()
	if err := mustTopology(t, r).Apply(ctx, r.conn); err != nil {
		t.Fatal(err)
	}
	cancel := r.entry("CancelOrder")
	h := &handlers{}
	r.consume(cancel.Queue, h.handle(func(map[string]any) acemq.Ack {
		return acemq.Reject(acemq.Fatalf("the database is down"))
	}))
	for i := range n {
		r.send(cancel, acemq.JSONCodec{}, map[string]any{"orderId": fmt.Sprintf("o%03d", i), "tenant": "t1"})
	}
	dlq := acemq.DeadLetterQueue(cancel.Queue)
	r.waitCount(dlq, n)
	sent := idsOn(t, r, dlq)
	if len(sent) != n {
		t.Fatalf("the dead-letter queue holds %d distinct ids; want %d", len(sent), n)
	}

	h.fix()
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan int, 1)
	var out, errOut bytes.Buffer
	t.Setenv(ops.KeysEnv, r.keysEnv)
	go func() {
		done <- run(runCtx, []string{"dlq", "redrive", "--url", r.url, "--rate", "200/s", dlq, r.dir}, strings.NewReader(""), &out, &errOut)
	}()
	deadline := time.Now().Add(opsWait)
	for len(h.acceptedSoFar()) < n/4 {
		if time.Now().After(deadline) {
			stop()
			t.Fatalf("the redrive moved %d in %s; want %d before interrupting it", len(h.acceptedSoFar()), opsWait, n/4)
		}
		time.Sleep(time.Millisecond)
	}
	stop()
	var code int
	select {
	case code = <-done:
	case <-time.After(opsWait):
		t.Fatal("the interrupted redrive did not return")
	}
	if code == exitOK || !strings.Contains(errOut.String(), "context canceled") {
		t.Errorf("the interrupted redrive: exit %d, stderr %q; want a failure naming the cancellation", code, errOut.String())
	}
	moved := movedInAll(t, out.String())
	if moved <= 0 || moved >= n {
		t.Fatalf("the interrupted redrive moved %d; want it stopped partway:\n%s", moved, out.String())
	}
	waitAccepted(t, h, moved)
	r.waitCount(cancel.Queue, 0)
	left := idsOn(t, r, dlq)
	if len(left) != n-moved {
		t.Errorf("after moving %d the dead-letter queue holds %d; want %d", moved, len(left), n-moved)
	}
	assertOnce(t, sent, h.acceptedSoFar(), left)

	code, rest, errRest := r.cli("dlq", "redrive", "--url", r.url, dlq, r.dir)
	if code != exitOK || !strings.Contains(rest, fmt.Sprintf("moved %d in all", n-moved)) {
		t.Fatalf("the second redrive: exit %d: %s%s", code, rest, errRest)
	}
	waitAccepted(t, h, n)
	r.waitCount(dlq, 0)
	assertOnce(t, sent, h.acceptedSoFar(), nil)
}

// idsOn is the message ids on queue, read and left there.
func idsOn(t *testing.T, r *opsRig, queue string) []string {
	t.Helper()
	msgs, err := dlqop.Peek(context.Background(), r.conn, queue)
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]string, 0, len(msgs))
	for _, m := range msgs {
		ids = append(ids, m.Envelope.ID)
	}
	slices.Sort(ids)
	return slices.Compact(ids)
}

// assertOnce fails unless every id sent is in exactly one of accepted and
// left, and nothing else is in either.
func assertOnce(t *testing.T, sent []string, accepted []acemq.Envelope, left []string) {
	t.Helper()
	seen := map[string]int{}
	for _, e := range accepted {
		seen[e.ID]++
	}
	for _, id := range left {
		seen[id]++
	}
	var lost, doubled []string
	for _, id := range sent {
		switch seen[id] {
		case 0:
			lost = append(lost, id)
		case 1:
		default:
			doubled = append(doubled, id)
		}
		delete(seen, id)
	}
	if len(lost) > 0 || len(doubled) > 0 || len(seen) > 0 {
		t.Errorf("%d lost %v, %d in two places %v, %d never sent", len(lost), lost, len(doubled), doubled, len(seen))
	}
}

// movedInAll reads "moved N in all" from a redrive's output, or the sum of
// its per-destination "moved N to" lines when it stopped before the total.
func movedInAll(t *testing.T, out string) int {
	t.Helper()
	total := 0
	for _, line := range strings.Split(out, "\n") {
		_, after, ok := strings.Cut(line, ": moved ")
		if !ok {
			continue
		}
		num, _, _ := strings.Cut(after, " ")
		k, err := strconv.Atoi(num)
		if err != nil {
			t.Fatalf("redrive printed %q", line)
		}
		total += k
	}
	return total
}
