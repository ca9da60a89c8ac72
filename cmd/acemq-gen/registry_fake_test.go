package main

// fakeRegistry is an in-process server implementing the subset of the
// Confluent Schema Registry REST API the registry commands use, as
// Confluent documents it
// (https://docs.confluent.io/platform/current/schema-registry/develop/api.html):
//
//	POST /subjects/{subject}/versions                      {"schema"} -> {"id"}; 409 when incompatible
//	GET  /subjects/{subject}/versions                      -> [1,2,...]
//	GET  /subjects/{subject}/versions/{version|latest}     -> {"subject","id","version","schema"}
//	GET  /schemas/ids/{id}                                 -> {"schema"}
//	POST /compatibility/subjects/{subject}/versions/latest {"schema"} -> {"is_compatible"}
//
// Errors are {"error_code","message"}: 40401 subject not found, 40402
// version not found, 40403 schema not found, 42201 invalid schema, 409
// incompatible, 401 unauthorized. Each subject has a compatibility level
// (BACKWARD unless set): BACKWARD (the new schema reads the latest),
// FORWARD (the latest reads the new schema) or NONE. Ids are global and
// shared by identical schema texts.

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"sync"
	"testing"

	hamba "github.com/hamba/avro/v2"
)

const registryMedia = "application/vnd.schemaregistry.v1+json"

type fakeRegistry struct {
	mu       sync.Mutex
	schemas  []string          // index id-1
	subjects map[string][]int  // subject -> ids by version
	levels   map[string]string // subject -> compatibility level
	user     string            // required basic auth, when set
	pass     string
	seen     map[string]int // "METHOD pattern" -> count
}

func newFakeRegistry(t *testing.T, user, pass string, tlsServer bool) (*fakeRegistry, *httptest.Server) {
	t.Helper()
	f := &fakeRegistry{subjects: map[string][]int{}, levels: map[string]string{}, user: user, pass: pass, seen: map[string]int{}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /subjects/{subject}/versions", f.register)
	mux.HandleFunc("GET /subjects/{subject}/versions", f.versions)
	mux.HandleFunc("GET /subjects/{subject}/versions/{version}", f.version)
	mux.HandleFunc("GET /schemas/ids/{id}", f.byID)
	mux.HandleFunc("POST /compatibility/subjects/{subject}/versions/latest", f.compatibility)
	h := f.guard(mux)
	srv := httptest.NewUnstartedServer(h)
	if tlsServer {
		srv.StartTLS()
	} else {
		srv.Start()
	}
	t.Cleanup(srv.Close)
	return f, srv
}

func (f *fakeRegistry) guard(mux *http.ServeMux) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if user, pass, _ := r.BasicAuth(); f.user != "" && (user != f.user || pass != f.pass) {
			apiError(w, http.StatusUnauthorized, 401, "Unauthorized")
			return
		}
		_, pattern := mux.Handler(r)
		f.mu.Lock()
		f.seen[pattern]++
		f.mu.Unlock()
		mux.ServeHTTP(w, r)
	})
}

func reply(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", registryMedia)
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func apiError(w http.ResponseWriter, status, code int, msg string) {
	reply(w, status, map[string]any{"error_code": code, "message": msg})
}

// body reads the request's schema, answering 422 when it is not Avro.
func body(w http.ResponseWriter, r *http.Request) (string, hamba.Schema, bool) {
	var req struct {
		Schema string `json:"schema"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		apiError(w, http.StatusUnprocessableEntity, 42201, "Invalid schema")
		return "", nil, false
	}
	s, err := hamba.ParseWithCache(req.Schema, "", &hamba.SchemaCache{})
	if err != nil {
		apiError(w, http.StatusUnprocessableEntity, 42201, "Invalid schema "+err.Error())
		return "", nil, false
	}
	return req.Schema, s, true
}

func (f *fakeRegistry) register(w http.ResponseWriter, r *http.Request) {
	text, s, ok := body(w, r)
	if !ok {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	subject := r.PathValue("subject")
	if v := f.versionOfLocked(subject, text); v > 0 {
		reply(w, http.StatusOK, map[string]int{"id": f.subjects[subject][v-1]})
		return
	}
	if !f.compatibleLocked(subject, s) {
		apiError(w, http.StatusConflict, 409, "Schema being registered is incompatible with an earlier schema for subject \""+subject+"\"")
		return
	}
	reply(w, http.StatusOK, map[string]int{"id": f.addLocked(subject, text)})
}

// add registers text under subject, whatever the level, and returns its id.
func (f *fakeRegistry) add(subject, text string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.addLocked(subject, text)
}

func (f *fakeRegistry) addLocked(subject, text string) int {
	id := slices.Index(f.schemas, text) + 1
	if id == 0 {
		f.schemas = append(f.schemas, text)
		id = len(f.schemas)
	}
	if !slices.Contains(f.subjects[subject], id) {
		f.subjects[subject] = append(f.subjects[subject], id)
	}
	return id
}

func (f *fakeRegistry) setLevel(subject, level string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.levels[subject] = level
}

func (f *fakeRegistry) versionOfLocked(subject, text string) int {
	for v, id := range f.subjects[subject] {
		if f.schemas[id-1] == text {
			return v + 1
		}
	}
	return 0
}

// compatibleLocked applies the subject's level between s and its latest
// version.
func (f *fakeRegistry) compatibleLocked(subject string, s hamba.Schema) bool {
	ids := f.subjects[subject]
	if len(ids) == 0 || f.levels[subject] == "NONE" {
		return true
	}
	latest := hamba.MustParse(f.schemas[ids[len(ids)-1]-1])
	reader, writer := s, latest
	if f.levels[subject] == "FORWARD" {
		reader, writer = latest, s
	}
	return hamba.NewSchemaCompatibility().Compatible(reader, writer) == nil
}

func (f *fakeRegistry) entryLocked(subject string, v int) map[string]any {
	id := f.subjects[subject][v-1]
	return map[string]any{"subject": subject, "id": id, "version": v, "schema": f.schemas[id-1]}
}

func (f *fakeRegistry) versions(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	subject := r.PathValue("subject")
	n := len(f.subjects[subject])
	if n == 0 {
		apiError(w, http.StatusNotFound, 40401, "Subject '"+subject+"' not found.")
		return
	}
	vs := make([]int, n)
	for i := range vs {
		vs[i] = i + 1
	}
	reply(w, http.StatusOK, vs)
}

func (f *fakeRegistry) version(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	subject := r.PathValue("subject")
	n := len(f.subjects[subject])
	v, err := strconv.Atoi(r.PathValue("version"))
	if r.PathValue("version") == "latest" {
		v, err = n, nil
	}
	if err != nil || v < 1 || v > n {
		apiError(w, http.StatusNotFound, 40402, "Version not found.")
		return
	}
	reply(w, http.StatusOK, f.entryLocked(subject, v))
}

func (f *fakeRegistry) byID(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	id, _ := strconv.Atoi(r.PathValue("id"))
	if id < 1 || id > len(f.schemas) {
		apiError(w, http.StatusNotFound, 40403, "Schema not found")
		return
	}
	reply(w, http.StatusOK, map[string]string{"schema": f.schemas[id-1]})
}

func (f *fakeRegistry) compatibility(w http.ResponseWriter, r *http.Request) {
	_, s, ok := body(w, r)
	if !ok {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	subject := r.PathValue("subject")
	if len(f.subjects[subject]) == 0 {
		apiError(w, http.StatusNotFound, 40401, "Subject '"+subject+"' not found.")
		return
	}
	reply(w, http.StatusOK, map[string]bool{"is_compatible": f.compatibleLocked(subject, s)})
}

// count is how many requests matched pattern.
func (f *fakeRegistry) count(pattern string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.seen[pattern]
}

// versionsOf is how many versions subject holds.
func (f *fakeRegistry) versionsOf(subject string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.subjects[subject])
}
