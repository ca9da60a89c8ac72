package acemq_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"slices"
	"strings"
	"testing"
)

// maxExports is issue 22's bound on runtime/acemq's exported API (399
// names before it, 431 after issue 21 added limits and error types).
const maxExports = 300

// exportedNames lists the exported names of the package in dir by issue
// 22's rule: exported types, functions, methods of exported types ("T.M"),
// constants and variables of its non-test, non-generated files.
func exportedNames(t *testing.T, dir string) []string {
	t.Helper()
	fset := token.NewFileSet()
	notTest := func(fi fs.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }
	pkgs, err := parser.ParseDir(fset, dir, notTest, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range pkgs {
		for _, f := range p.Files {
			if !ast.IsGenerated(f) {
				names = append(names, declaredNames(f)...)
			}
		}
	}
	slices.Sort(names)
	return names
}

// declaredNames is exportedNames for one file.
func declaredNames(f *ast.File) []string {
	var names []string
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			names = append(names, funcName(d)...)
		case *ast.GenDecl:
			for _, s := range d.Specs {
				names = append(names, specNames(s)...)
			}
		}
	}
	return names
}

func funcName(d *ast.FuncDecl) []string {
	if !d.Name.IsExported() {
		return nil
	}
	if d.Recv == nil {
		return []string{d.Name.Name}
	}
	recv := receiverType(d.Recv.List[0].Type)
	if recv == nil || !recv.IsExported() {
		return nil
	}
	return []string{recv.Name + "." + d.Name.Name}
}

func receiverType(e ast.Expr) *ast.Ident {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x
		default:
			return nil
		}
	}
}

func specNames(s ast.Spec) []string {
	var names []string
	switch s := s.(type) {
	case *ast.TypeSpec:
		if s.Name.IsExported() {
			names = append(names, s.Name.Name)
		}
	case *ast.ValueSpec:
		for _, n := range s.Names {
			if n.IsExported() {
				names = append(names, n.Name)
			}
		}
	}
	return names
}

func TestRuntimeAcemqExportsAtMost300Names(t *testing.T) {
	names := exportedNames(t, ".")
	if len(names) < 100 {
		t.Fatalf("found only %d exported names; the parse missed the package", len(names))
	}
	if len(names) > maxExports {
		t.Errorf("runtime/acemq exports %d names, more than %d: put transport SPI in runtime/acemq/driver, "+
			"vocabulary in runtime/acemq/semconv, generated-code hooks in runtime/acemqimpl, test helpers in "+
			"runtime/acemqtest:\n%s", len(names), maxExports, strings.Join(names, "\n"))
	}
}

// notForApplications are names go doc ./runtime/acemq must not show: the
// transport SPI (runtime/acemq/driver), the observer and wire vocabulary
// (runtime/acemq/semconv), the test metrics (runtime/acemqtest), the hooks
// only generated code calls (runtime/acemqimpl), the retry ladder's and the
// codec authors' internals.
var notForApplications = []string{
	"Transport", "DialFunc", "RegisterTransport", "TransportSchemes", "QueueSpec", "ExchangeSpec",
	"ConsumeSpec", "Outbound", "Delivery", "Delivery.Ack", "Delivery.Nack", "Acknowledger",
	"Subscription", "AsyncPublisher", "Confirmation", "ConfirmationOf", "Holder", "HeldQueue",
	"QueueInspector", "QueueChecker", "QueueDeleter", "BlockedReporter", "ReplyTransport",
	"ReplyChannel", "CapabilityReporter", "Puller", "StampReplyAddress",
	"Labels", "MetricKey", "Metrics", "NewMetrics", "DurationSummary",
	"PublishWithFunc", "ConsumeWithFunc", "DeclareAndConsume", "MappedCodec", "ConnOptions",
	"SubscriberQueue", "PublishHeaderRules", "ConsumeHeaderRules", "HeaderRulesOf", "StartServer",
	"ConsumeSetAsideQueuesOfType", "InterceptPublish", "SupportPackageIsVersion2",
	"RetryPolicy.DelayAfter", "RetryPolicy.Jitter", "RetryPolicy.WaitsInBroker",
	"RetryPolicy.HasBrokerWaits", "DecodeLimits.CheckBody", "DecodeLimits.Over",
	"DecodeLimits.TooDeep", "DecodeLimits.TooMany", "DecodeLimits.Resolve", "LimitBody",
	"LimitDepth", "LimitElements", "ProcessDecodeLimits",
}

// notForApplicationsPrefixes are families of vocabulary names (semconv).
var notForApplicationsPrefixes = []string{"Metric", "Label", "Header", "Arg", "Capability"}

func TestRuntimeAcemqDocShowsNoSPIMetricOrHookName(t *testing.T) {
	for _, name := range exportedNames(t, ".") {
		if slices.Contains(notForApplications, name) {
			t.Errorf("runtime/acemq exports %s, which is not for applications", name)
		}
		for _, p := range notForApplicationsPrefixes {
			if strings.HasPrefix(name, p) && !isApplicationName(name) {
				t.Errorf("runtime/acemq exports %s, a vocabulary name of the %s* family (runtime/acemq/semconv or driver)", name, p)
			}
		}
	}
}

// isApplicationName admits the application API whose names share a prefix
// with the vocabulary families: header rules of a contract and their error.
func isApplicationName(name string) bool {
	switch name {
	case "Header", "HeaderRule", "HeaderValueType", "HeaderTypeError", "HeaderTypeError.Error":
		return true
	}
	return false
}
