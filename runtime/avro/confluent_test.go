package avro

// These tests run the client against fakeConfluent, an in-process httptest
// server implementing the subset of the Confluent Schema Registry REST API
// the client uses, as Confluent documents it
// (https://docs.confluent.io/platform/current/schema-registry/develop/api.html):
//
//	POST /subjects/{subject}/versions                     {"schema","schemaType"?} -> {"id"}
//	GET  /schemas/ids/{id}                                -> {"schema","schemaType"?}
//	GET  /subjects/{subject}/versions                     -> [1,2,...]
//	GET  /subjects/{subject}/versions/{version|latest}    -> {"subject","id","version","schema"}
//	POST /compatibility/subjects/{subject}/versions/latest -> {"is_compatible"}
//
// Errors are {"error_code","message"}: 40401 subject not found, 40402 version
// not found, 40403 schema not found, 42201 invalid schema. Requests and
// responses use application/vnd.schemaregistry.v1+json. The server checks
// basic authentication when the test gives it credentials, and checks
// BACKWARD compatibility (new schema reads the latest) with hamba.

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	hamba "github.com/hamba/avro/v2"
)

type fakeConfluent struct {
	mu       sync.Mutex
	schemas  []schemaPayload  // index id-1
	subjects map[string][]int // subject -> ids by version
	byFP     map[string]int   // fingerprint -> id
	user     string           // required basic auth user, when set
	pass     string
	requests map[string]int // "METHOD pattern" -> count
}

func newFakeConfluent(t *testing.T, user, pass string) (*fakeConfluent, *httptest.Server) {
	f := &fakeConfluent{subjects: map[string][]int{}, byFP: map[string]int{}, user: user, pass: pass, requests: map[string]int{}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /subjects/{subject}/versions", f.register)
	mux.HandleFunc("GET /schemas/ids/{id}", f.byID)
	mux.HandleFunc("GET /subjects/{subject}/versions", f.versions)
	mux.HandleFunc("GET /subjects/{subject}/versions/{version}", f.version)
	mux.HandleFunc("POST /compatibility/subjects/{subject}/versions/latest", f.compatibility)
	srv := httptest.NewServer(f.guard(mux))
	t.Cleanup(srv.Close)
	return f, srv
}

func (f *fakeConfluent) guard(next *http.ServeMux) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if user, pass, _ := r.BasicAuth(); f.user != "" && (user != f.user || pass != f.pass) {
			writeAPI(w, http.StatusUnauthorized, map[string]any{"error_code": 401, "message": "Unauthorized"})
			return
		}
		if r.Method == http.MethodPost && r.Header.Get("Content-Type") != ConfluentContentType {
			writeAPI(w, http.StatusUnsupportedMediaType, map[string]any{"error_code": 415, "message": "Unsupported Media Type"})
			return
		}
		_, pattern := next.Handler(r)
		f.mu.Lock()
		f.requests[pattern]++
		f.mu.Unlock()
		next.ServeHTTP(w, r)
	})
}

func writeAPI(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", ConfluentContentType)
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func apiErr(w http.ResponseWriter, status, code int, msg string) {
	writeAPI(w, status, map[string]any{"error_code": code, "message": msg})
}

func (f *fakeConfluent) register(w http.ResponseWriter, r *http.Request) {
	var req schemaPayload
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		apiErr(w, 422, 42201, "Invalid schema")
		return
	}
	fp, err := Fingerprint(schemaTypeToFormat(req.SchemaType), req.Schema)
	if err != nil {
		apiErr(w, 422, 42201, "Invalid schema")
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	writeAPI(w, http.StatusOK, map[string]int{"id": f.addLocked(r.PathValue("subject"), req, fp)})
}

func (f *fakeConfluent) addLocked(subject string, req schemaPayload, fp string) int {
	id, ok := f.byFP[fp]
	if !ok {
		f.schemas = append(f.schemas, schemaPayload{Schema: req.Schema, SchemaType: req.SchemaType})
		id = len(f.schemas)
		f.byFP[fp] = id
	}
	for _, have := range f.subjects[subject] {
		if have == id {
			return id
		}
	}
	f.subjects[subject] = append(f.subjects[subject], id)
	return id
}

func schemaTypeToFormat(t string) string {
	if t == "" {
		return FormatAvro
	}
	return t
}

func (f *fakeConfluent) byID(w http.ResponseWriter, r *http.Request) {
	id, _ := strconv.Atoi(r.PathValue("id"))
	f.mu.Lock()
	defer f.mu.Unlock()
	if id < 1 || id > len(f.schemas) {
		apiErr(w, 404, 40403, "Schema not found")
		return
	}
	writeAPI(w, http.StatusOK, f.schemas[id-1])
}

func (f *fakeConfluent) versions(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	ids := f.subjects[r.PathValue("subject")]
	if len(ids) == 0 {
		apiErr(w, 404, 40401, "Subject not found")
		return
	}
	vs := make([]int, len(ids))
	for i := range ids {
		vs[i] = i + 1
	}
	writeAPI(w, http.StatusOK, vs)
}

func (f *fakeConfluent) version(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	subject := r.PathValue("subject")
	p, ok := f.lookupLocked(subject, r.PathValue("version"))
	if !ok {
		apiErr(w, 404, 40402, "Version not found")
		return
	}
	writeAPI(w, http.StatusOK, p)
}

func (f *fakeConfluent) lookupLocked(subject, version string) (schemaPayload, bool) {
	ids := f.subjects[subject]
	v, err := strconv.Atoi(version)
	if version == "latest" {
		v, err = len(ids), nil
	}
	if err != nil || v < 1 || v > len(ids) {
		return schemaPayload{}, false
	}
	p := f.schemas[ids[v-1]-1]
	p.Subject, p.ID, p.Version = subject, ids[v-1], v
	return p, true
}

func (f *fakeConfluent) compatibility(w http.ResponseWriter, r *http.Request) {
	var req schemaPayload
	_ = json.NewDecoder(r.Body).Decode(&req)
	f.mu.Lock()
	latest, ok := f.lookupLocked(r.PathValue("subject"), "latest")
	f.mu.Unlock()
	if !ok {
		apiErr(w, 404, 40401, "Subject not found")
		return
	}
	reader, err1 := parse(req.Schema)
	writer, err2 := parse(latest.Schema)
	if err1 != nil || err2 != nil {
		apiErr(w, 422, 42201, "Invalid schema")
		return
	}
	err := hamba.NewSchemaCompatibility().Compatible(reader, writer)
	writeAPI(w, http.StatusOK, map[string]bool{"is_compatible": err == nil})
}

func (f *fakeConfluent) count(pattern string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.requests[pattern]
}

func TestConfluentRegistryRegistersAndLooksUp(t *testing.T) {
	_, srv := newFakeConfluent(t, "", "")
	reg := must[*ConfluentRegistry](t)(NewConfluentRegistry(srv.URL + "/"))
	ctx := t.Context()
	a := must[SchemaDefinition](t)(reg.Register(ctx, "orders-value", FormatAvro, orderV1))
	b := must[SchemaDefinition](t)(reg.Register(ctx, "orders-value", FormatAvro, orderV2))
	again := must[SchemaDefinition](t)(reg.Register(ctx, "orders-value", FormatAvro, orderV1))
	if a.ID != 1 || b.ID != 2 || again.ID != 1 || a.Fingerprint == "" || a.Subject != "orders-value" {
		t.Fatalf("ids %d %d %d, %+v", a.ID, b.ID, again.ID, a)
	}
	if got := must[SchemaDefinition](t)(reg.ByID(ctx, 2)); got.Definition != orderV2 || got.ID != 2 || got.Fingerprint != b.Fingerprint {
		t.Fatalf("ByID(2) = %+v", got)
	}
	latest := must[SchemaDefinition](t)(reg.Latest(ctx, "orders-value"))
	if latest.ID != 2 || latest.Version != 2 || latest.Subject != "orders-value" {
		t.Fatalf("Latest = %+v", latest)
	}
	all := must[[]SchemaDefinition](t)(reg.Versions(ctx, "orders-value"))
	if len(all) != 2 || all[0].ID != 1 || all[0].Version != 1 || all[1].Definition != orderV2 {
		t.Fatalf("Versions = %+v", all)
	}
}

func TestConfluentRegistryEscapesSubjects(t *testing.T) {
	_, srv := newFakeConfluent(t, "", "")
	reg := must[*ConfluentRegistry](t)(NewConfluentRegistry(srv.URL))
	must[SchemaDefinition](t)(reg.Register(t.Context(), "orders/v 1", FormatAvro, orderV1))
	if got := must[SchemaDefinition](t)(reg.Latest(t.Context(), "orders/v 1")); got.Subject != "orders/v 1" || got.ID != 1 {
		t.Fatalf("Latest = %+v", got)
	}
}

func TestConfluentRegistryMapsNotFoundToErrSchemaNotFound(t *testing.T) {
	_, srv := newFakeConfluent(t, "", "")
	reg := must[*ConfluentRegistry](t)(NewConfluentRegistry(srv.URL))
	_, err := reg.ByID(t.Context(), 99)
	var apiErr *ConfluentError
	if !errors.Is(err, ErrSchemaNotFound) || !errors.As(err, &apiErr) || apiErr.ErrorCode != 40403 {
		t.Fatalf("ByID(99): %v", err)
	}
	if _, err := reg.Latest(t.Context(), "nobody"); !errors.Is(err, ErrSchemaNotFound) {
		t.Fatalf("Latest: %v", err)
	}
	if _, err := reg.Versions(t.Context(), "nobody"); !errors.Is(err, ErrSchemaNotFound) {
		t.Fatalf("Versions: %v", err)
	}
}

func TestConfluentRegistrySendsBasicAuthAndRefusesWithoutIt(t *testing.T) {
	_, srv := newFakeConfluent(t, "svc", "s3cret")
	anon := must[*ConfluentRegistry](t)(NewConfluentRegistry(srv.URL))
	var apiErr *ConfluentError
	if _, err := anon.Register(t.Context(), "s", FormatAvro, orderV1); !errors.As(err, &apiErr) || apiErr.StatusCode != 401 {
		t.Fatalf("without credentials: %v", err)
	}
	authed := must[*ConfluentRegistry](t)(NewConfluentRegistry(srv.URL, WithBasicAuth("svc", "s3cret"), WithHTTPClient(srv.Client())))
	if _, err := authed.Register(t.Context(), "s", FormatAvro, orderV1); err != nil {
		t.Fatalf("with credentials: %v", err)
	}
}

func TestConfluentRegistryChecksCompatibility(t *testing.T) {
	_, srv := newFakeConfluent(t, "", "")
	reg := must[*ConfluentRegistry](t)(NewConfluentRegistry(srv.URL))
	ctx := t.Context()
	if ok, err := reg.CheckCompatibility(ctx, "orders", FormatAvro, orderV1); !ok || err != nil {
		t.Fatalf("first schema of a subject: %v %v", ok, err)
	}
	must[SchemaDefinition](t)(reg.Register(ctx, "orders", FormatAvro, orderV1))
	if ok, err := reg.CheckCompatibility(ctx, "orders", FormatAvro, orderV2); !ok || err != nil {
		t.Fatalf("adding a field with a default: %v %v", ok, err)
	}
	breaking := `{"type":"record","name":"Order","namespace":"com.acme","fields":[{"name":"orderId","type":"string"},{"name":"mandatory","type":"string"}]}`
	if ok, err := reg.CheckCompatibility(ctx, "orders", FormatAvro, breaking); ok || err != nil {
		t.Fatalf("adding a field without a default: %v %v", ok, err)
	}
}

func TestRegisteredCodecOverConfluentRegistersOnceAndLooksUpOncePerID(t *testing.T) {
	fake, srv := newFakeConfluent(t, "", "")
	reg := must[*ConfluentRegistry](t)(NewConfluentRegistry(srv.URL))
	writer := must[*Codec](t)(Registered(reg, "orders-value", orderV1))
	reader := must[*Codec](t)(Registered(reg, "orders-value", orderV2, ReaderSchema(orderV2)))
	for range 3 {
		body := must[[]byte](t)(writer.Encode(orderV1Go{OrderID: "o-1", PlacedAt: placed}))
		var out orderV2Go
		if err := reader.Decode(body, &out); err != nil || out.Visibility != "public" {
			t.Fatalf("decoded %+v, %v", out, err)
		}
	}
	if n := fake.count("POST /subjects/{subject}/versions"); n != 1 {
		t.Fatalf("%d registrations, want 1", n)
	}
	if n := fake.count("GET /schemas/ids/{id}"); n != 1 {
		t.Fatalf("%d lookups, want 1", n)
	}
}

func TestNewConfluentRegistryRefusesANonHTTPURL(t *testing.T) {
	for _, u := range []string{"amqp://host", "not a url at all", "://x", "http://"} {
		if _, err := NewConfluentRegistry(u); err == nil {
			t.Errorf("NewConfluentRegistry(%q) succeeded", u)
		}
	}
	r := must[*ConfluentRegistry](t)(NewConfluentRegistry("https://user:pw@registry.example/prefix"))
	if s := r.String(); s != "avro.ConfluentRegistry(https://user:xxxxx@registry.example/prefix)" {
		t.Errorf("String() = %q", s)
	}
	authed := must[*ConfluentRegistry](t)(NewConfluentRegistry("https://registry.example", WithBasicAuth("svc", "hunter2")))
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x"} {
		if out := fmt.Sprintf(verb, authed); strings.Contains(out, "hunter2") || strings.Contains(out, fmt.Sprintf("%x", "hunter2")) {
			t.Errorf("%s prints the password: %s", verb, out)
		}
	}
}

func TestConfluentRegistryURLNeverPrintsPasswordWithReservedChars(t *testing.T) {
	for _, raw := range []string{
		"http://ci:Zq7x/Kp9mW@registry:8081", "http://ci:Zq7x?Kp9mW@registry:8081", "http://ci:Zq7x#Kp9mW@registry:8081",
		"http://ci:Zq7x%Kp9mW@registry:8081", "ftp://ci:Zq7xKp9mW@registry",
	} {
		_, err := NewConfluentRegistry(raw)
		if err == nil {
			t.Errorf("NewConfluentRegistry(%q) succeeded", raw)
			continue
		}
		if strings.Contains(err.Error(), "Kp9m") || strings.Contains(err.Error(), "Zq7x") {
			t.Errorf("NewConfluentRegistry(%q) = %q: prints the password", raw, err)
		}
	}
}
