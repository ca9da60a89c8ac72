package acemqtest_test

import (
	"context"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
	"github.com/acemq/acemq-gen/runtime/acemqtest"
)

// TestRecorderKeepsSendAllOrder: SendAll through a Recorder over memory://
// lands in payload order, in the queue and in Published, as it does on
// memory:// itself. Without PublishAsync passed on, SendAll took the
// goroutine-per-publish path and the order was whatever the goroutines made.
func TestRecorderKeepsSendAllOrder(t *testing.T) {
	conn, rec := acemqtest.Connect(t)
	ctx := context.Background()
	if err := conn.DeclareQueue(ctx, "orders"); err != nil {
		t.Fatal(err)
	}
	payloads := make([]int, 300)
	for i := range payloads {
		payloads[i] = i
	}
	for round := range 3 { // out of order by luck's chance only once in a while
		rec.Reset()
		if _, err := acemq.NewPublisher[int](conn, "", "orders").SendAll(ctx, payloads); err != nil {
			t.Fatal(err)
		}
		for i, r := range rec.Published() {
			if got := decodeInt(t, r.Outbound.Body); got != i {
				t.Fatalf("round %d: Published()[%d] is payload %d, want payload order", round, i, got)
			}
		}
		expectQueueOrder(t, conn, "orders", len(payloads))
	}
}

// expectQueueOrder pulls n messages from queue, expecting payloads 0..n-1.
func expectQueueOrder(t *testing.T, conn *acemq.Conn, queue string, n int) {
	t.Helper()
	for i := range n {
		d, ok, err := conn.Pull(context.Background(), queue)
		if err != nil || !ok {
			t.Fatalf("message %d: ok=%v, %v", i, ok, err)
		}
		if got := decodeInt(t, d.Body); got != i {
			t.Fatalf("message %d in the queue is payload %d, want payload order", i, got)
		}
	}
}

func decodeInt(t *testing.T, body []byte) int {
	t.Helper()
	var n int
	if err := json.Unmarshal(body, &n); err != nil {
		t.Fatalf("body %q: %v", body, err)
	}
	return n
}

// seamCase is how TestRecorderPassesOnEverySeam checks one seam: its
// interface, and a call through the Recorder that must reach the wrapped
// transport and bring its answer back.
type seamCase struct {
	iface reflect.Type
	call  func(t *testing.T, rec *acemqtest.Recorder)
}

// seamCases lists every optional Transport seam, by name. A seam added to
// runtime/acemq and missing here fails TestRecorderPassesOnEverySeam: pass
// it on in the Recorder (recorder_seams.go), then add it here.
var seamCases = map[string]seamCase{
	"CapabilityReporter": {reflect.TypeFor[driver.CapabilityReporter](), func(t *testing.T, rec *acemqtest.Recorder) {
		want(t, rec.Supports(driver.CapabilityStreams), true)
	}},
	"QueueChecker": {reflect.TypeFor[driver.QueueChecker](), func(t *testing.T, rec *acemqtest.Recorder) {
		ok, err := rec.QueueExists(context.Background(), "q")
		want(t, ok, true)
		want(t, err, nil)
	}},
	"QueueDeleter": {reflect.TypeFor[driver.QueueDeleter](), func(t *testing.T, rec *acemqtest.Recorder) {
		want(t, rec.DeleteQueue(context.Background(), "q"), nil)
	}},
	"QueueInspector": {reflect.TypeFor[driver.QueueInspector](), func(t *testing.T, rec *acemqtest.Recorder) {
		n, err := rec.MessageCount(context.Background(), "q")
		want(t, n, 7)
		want(t, err, nil)
	}},
	"Puller": {reflect.TypeFor[driver.Puller](), func(t *testing.T, rec *acemqtest.Recorder) {
		d, ok, err := rec.Pull(context.Background(), "q")
		want(t, d.MessageID, "pulled")
		want(t, ok, true)
		want(t, err, nil)
	}},
	"Holder": {reflect.TypeFor[driver.Holder](), func(t *testing.T, rec *acemqtest.Recorder) {
		h, err := rec.Hold(context.Background(), "q")
		want(t, err, nil)
		want(t, h == nil, false)
	}},
	"HeadersReleaser": {reflect.TypeFor[driver.HeadersReleaser](), func(t *testing.T, rec *acemqtest.Recorder) {
		want(t, rec.ReleasesHeaders(), true)
	}},
	"BlockedReporter": {reflect.TypeFor[driver.BlockedReporter](), func(t *testing.T, rec *acemqtest.Recorder) {
		reason, blocked := rec.Blocked()
		want(t, reason, "alarm")
		want(t, blocked, true)
	}},
	"ReplyTransport": {reflect.TypeFor[driver.ReplyTransport](), func(t *testing.T, rec *acemqtest.Recorder) {
		rc, err := rec.OpenReplies(context.Background(), func(driver.Delivery) {})
		want(t, err, nil)
		want(t, rc.Address(), "spy-replies")
	}},
	"AsyncPublisher": {reflect.TypeFor[driver.AsyncPublisher](), func(t *testing.T, rec *acemqtest.Recorder) {
		ap, ok := any(rec).(driver.AsyncPublisher)
		if !ok {
			t.Fatal("the Recorder is not an AsyncPublisher")
		}
		conf, err := ap.PublishAsync(context.Background(), "x", "k", driver.Outbound{Body: []byte("b")})
		want(t, err, nil)
		res, err := conf.Wait(context.Background())
		want(t, res.MessageID, "async")
		want(t, err, nil)
		if all := rec.Published(); len(all) != 1 || all[0].RoutingKey != "k" || all[0].Result.MessageID != "async" {
			t.Errorf("Published() = %+v, want the asynchronous publish recorded with its result", all)
		}
	}},
}

func want[T comparable](t *testing.T, got, wanted T) {
	t.Helper()
	if got != wanted {
		t.Errorf("got %v, want %v", got, wanted)
	}
}

// TestRecorderPassesOnEverySeam finds every optional Transport seam in
// runtime/acemq/driver's source (interfaces documented as one), checks
// that runtime/acemq type-asserts a connection's transport to no other, and checks that the
// Recorder implements each and passes each call on to the transport it
// wraps, so a Conn on a Recorder does what a Conn on that transport does.
func TestRecorderPassesOnEverySeam(t *testing.T) {
	documented, _ := seamsInSource(t, filepath.Join("..", "acemq", "driver"))
	_, asserted := seamsInSource(t, filepath.Join("..", "acemq"))
	for _, name := range asserted {
		if !slices.Contains(documented, name) {
			t.Errorf("runtime/acemq type-asserts its transport to %s, which is not documented as an optional Transport seam", name)
		}
	}
	if len(documented) < len(seamCases) {
		t.Fatalf("found only %v documented as optional Transport seams, want at least the %d known", documented, len(seamCases))
	}
	recType := reflect.TypeFor[*acemqtest.Recorder]()
	for _, name := range documented {
		c, known := seamCases[name]
		if !known {
			t.Errorf("acemq.%s is an optional Transport seam the Recorder test does not know: pass it on in recorder_seams.go and add it to seamCases", name)
			continue
		}
		t.Run(name, func(t *testing.T) {
			if !recType.Implements(c.iface) {
				t.Fatalf("*Recorder does not implement acemq.%s", name)
			}
			s := &spy{}
			c.call(t, acemqtest.NewRecorder(s))
			if s.calls() == 0 {
				t.Errorf("the Recorder did not pass acemq.%s on to the transport it wraps", name)
			}
		})
	}
}

// seamsInSource returns the interfaces of the package in dir whose doc says
// they are an optional Transport seam, and those its non-test code
// type-asserts a transport field (x.transport.(I)) to.
func seamsInSource(t *testing.T, dir string) (documented, asserted []string) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no Go files in %s (%v)", dir, err)
	}
	fset := token.NewFileSet()
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		documented = append(documented, documentedSeams(f)...)
		asserted = append(asserted, assertedSeams(f)...)
	}
	slices.Sort(documented)
	return slices.Compact(documented), slices.Compact(slices.Sorted(slices.Values(asserted)))
}

func documentedSeams(f *ast.File) []string {
	var out []string
	for _, decl := range f.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, spec := range gd.Specs {
			ts := spec.(*ast.TypeSpec)
			doc := ts.Doc.Text() + gd.Doc.Text()
			if _, isIface := ts.Type.(*ast.InterfaceType); isIface && strings.Contains(doc, "is an optional Transport seam") {
				out = append(out, ts.Name.Name)
			}
		}
	}
	return out
}

func assertedSeams(f *ast.File) []string {
	var out []string
	typeParams := typeParamNames(f)
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.TypeAssertExpr:
			sel, onField := n.X.(*ast.SelectorExpr)
			if name := seamName(n.Type); onField && sel.Sel.Name == "transport" && name != "" && !typeParams[name] {
				out = append(out, name)
			}
		case *ast.IndexExpr: // transportAs[driver.S](c, …) asserts S
			fn, ok := n.X.(*ast.Ident)
			if name := seamName(n.Index); ok && strings.HasSuffix(fn.Name, "ransportAs") && !typeParams[name] {
				out = append(out, name)
			}
		}
		return true
	})
	return out
}

// typeParamNames are the type parameters of f's generic functions: an
// assertion to one (transportAs's c.transport.(S)) names no seam itself.
func typeParamNames(f *ast.File) map[string]bool {
	names := map[string]bool{}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Type.TypeParams != nil {
			for _, p := range fd.Type.TypeParams.List {
				for _, n := range p.Names {
					names[n.Name] = true
				}
			}
		}
	}
	return names
}

// seamName is the name of the interface a type assertion names: I or
// driver.I.
func seamName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return e.Sel.Name
	}
	return ""
}

// spy is a transport with every optional seam, counting the calls that reach
// it; its base Transport methods are never called here.
type spy struct {
	driver.Transport
	mu sync.Mutex
	n  int
}

func (s *spy) hit() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.n++
}

func (s *spy) calls() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n
}

func (s *spy) Supports(driver.Capability) bool { s.hit(); return true }
func (s *spy) QueueExists(context.Context, string) (bool, error) {
	s.hit()
	return true, nil
}
func (s *spy) DeleteQueue(context.Context, string) error { s.hit(); return nil }
func (s *spy) MessageCount(context.Context, string) (int, error) {
	s.hit()
	return 7, nil
}
func (s *spy) Pull(context.Context, string) (driver.Delivery, bool, error) {
	s.hit()
	return driver.Delivery{MessageID: "pulled"}, true, nil
}
func (s *spy) Blocked() (string, bool) { s.hit(); return "alarm", true }
func (s *spy) ReleasesHeaders() bool   { s.hit(); return true }
func (s *spy) Hold(context.Context, string) (driver.HeldQueue, error) {
	s.hit()
	return spyHold{}, nil
}

// spyHold is an empty hold.
type spyHold struct{}

func (spyHold) Next(context.Context) (driver.Delivery, bool, error) {
	return driver.Delivery{}, false, nil
}
func (spyHold) Close() error { return nil }
func (s *spy) OpenReplies(context.Context, func(driver.Delivery)) (driver.ReplyChannel, error) {
	s.hit()
	return spyReplies{}, nil
}
func (s *spy) PublishAsync(context.Context, string, string, driver.Outbound) (driver.Confirmation, error) {
	s.hit()
	return driver.ConfirmationOf(acemq.PublishResult{MessageID: "async", Confirmed: true, Routed: true}, nil), nil
}

type spyReplies struct{}

func (spyReplies) Address() string { return "spy-replies" }
func (spyReplies) Publish(context.Context, string, string, driver.Outbound) (acemq.PublishResult, error) {
	return acemq.PublishResult{}, nil
}
func (spyReplies) Close() error { return nil }
