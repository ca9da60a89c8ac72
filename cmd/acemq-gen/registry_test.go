package main

import (
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/registry"
	"github.com/acemq/acemq-gen/generator"
	"github.com/acemq/acemq-gen/runtime/avro"
)

// registryContract has two avro-registered events (one with its own
// subject), an avro-registered command and a json event the registry
// commands leave alone; the fields are YAML lines.
func registryContract(placedFields, cancelFields string) string {
	return "acemq: 1\ndomain: orders\nnamespace: com.example.orders\ncodec: avro-registered\nevents:\n" +
		"  OrderPlaced:\n    fields:\n" + indent(placedFields) +
		"  OrderShipped:\n    subject: orders-shipped-value\n    fields:\n      orderId: uuid\n" +
		"  OrderViewed:\n    codec: json\n    fields:\n      orderId: uuid\n" +
		"commands:\n  CancelOrder:\n    fields:\n" + indent(cancelFields)
}

const (
	placedV1 = "orderId: uuid\ntotalCents: long\nnote: string"
	cancelV1 = "orderId: uuid\nreason: string"
)

// registryDir writes the contract into a fresh directory.
func registryDir(t *testing.T, contract string) string {
	t.Helper()
	dir := t.TempDir()
	writeText(t, filepath.Join(dir, "orders.acemq.yaml"), contract)
	return dir
}

// entriesOf is the avro-registered messages of dir, by name.
func entriesOf(t *testing.T, dir string) map[string]generator.Entry {
	t.Helper()
	srcs, err := generator.ReadSources([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	entries, ds := generator.Catalog(srcs)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	out := map[string]generator.Entry{}
	for _, e := range entries {
		if e.Codec == "avro-registered" {
			out[e.Name] = e
		}
	}
	return out
}

func TestRegistryPushRegistersEveryAvroRegisteredMessageAndPrintsSubjectVersionID(t *testing.T) {
	f, srv := newFakeRegistry(t, "", "", false)
	dir := registryDir(t, registryContract(placedV1, cancelV1))
	es := entriesOf(t, dir)
	if len(es) != 3 {
		t.Fatalf("the contract has %d avro-registered messages, want 3", len(es))
	}
	code, out, errOut := cli(t, "registry", "push", "--url", srv.URL, dir)
	if code != exitOK {
		t.Fatalf("push exit %d\n%s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 {
		t.Fatalf("push printed %q, want a line per avro-registered message", out)
	}
	for _, line := range lines {
		if len(strings.Fields(line)) != 3 {
			t.Fatalf("line %q is not \"subject version id\"", line)
		}
	}
	for _, e := range es {
		reg, _ := avro.NewConfluentRegistry(srv.URL)
		codec, err := avro.Registered(reg, e.Subject, e.AvroSchema, avro.ReaderSchema(e.AvroFullSchema)) // as generated code builds it
		if err != nil {
			t.Fatal(err)
		}
		id, err := codec.SchemaID(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		want := e.Subject + " 1 " + strconv.Itoa(id)
		if !strings.Contains(out, want+"\n") {
			t.Errorf("push printed %q; want %q, the id the runtime's producer of %s gets", out, want, e.Name)
		}
		if f.versionsOf(e.Subject) != 1 {
			t.Errorf("subject %s holds %d versions after push and a producer, want 1", e.Subject, f.versionsOf(e.Subject))
		}
	}
	if !strings.Contains(out, "orders-shipped-value 1 ") || !strings.Contains(errOut, "3 registered, 0 already registered") {
		t.Errorf("stdout %q stderr %q", out, errOut)
	}

	code, again, errOut := cli(t, "registry", "push", "--url", srv.URL, dir)
	if code != exitOK || again != out || !strings.Contains(errOut, "0 registered, 3 already registered") {
		t.Fatalf("second push: exit %d, stdout %q (first %q), stderr %q", code, again, out, errOut)
	}
}

func TestRegistryPushAddsAVersionAndReportsTheRegistryRefusingAnIncompatibleSchema(t *testing.T) {
	f, srv := newFakeRegistry(t, "", "", false)
	v1 := registryDir(t, registryContract(placedV1, cancelV1))
	if code, _, errOut := cli(t, "registry", "push", "--url", srv.URL, v1); code != exitOK {
		t.Fatal(errOut)
	}
	// A new optional field with a default: BACKWARD accepts it as version 2.
	v2 := registryDir(t, registryContract(placedV1+"\ncoupon: {type: string, default: none}", cancelV1))
	code, out, errOut := cli(t, "registry", "push", "--url", srv.URL, v2)
	if code != exitOK || !strings.Contains(out, "orders-order.placed 2 ") {
		t.Fatalf("push of v2: exit %d stdout %q stderr %q", code, out, errOut)
	}
	// A new field without a default: BACKWARD refuses it with 409.
	v3 := registryDir(t, registryContract(placedV1, cancelV1+"\ncode: int"))
	code, out, errOut = cli(t, "registry", "push", "--url", srv.URL, v3)
	if code != exitFindings {
		t.Fatalf("push of an incompatible command: exit %d, want 1\n%s", code, errOut)
	}
	if !strings.Contains(errOut, `CancelOrder (subject "orders-cancel.order")`) || !strings.Contains(errOut, "409") ||
		strings.Contains(out, "orders-cancel.order") || f.versionsOf("orders-cancel.order") != 1 {
		t.Fatalf("stdout %q\nstderr %s", out, errOut)
	}
}

func TestRegistryCheckAppliesTheRoleRulesToEveryRegisteredVersion(t *testing.T) {
	f, srv := newFakeRegistry(t, "", "", false)
	for _, s := range []string{"orders-order.placed", "orders-cancel.order"} {
		f.setLevel(s, "NONE") // the registry keeps whatever comes: only acemq-gen's rules judge
	}
	v1 := registryDir(t, registryContract(placedV1, cancelV1))
	cli(t, "registry", "push", "--url", srv.URL, v1)
	// Version 2 of the event drops note, which version 1 reads without a
	// default: readers built from version 1 break, those from version 2 do not.
	v2 := registryDir(t, registryContract("orderId: uuid\ntotalCents: long", cancelV1))
	cli(t, "registry", "push", "--url", srv.URL, v2)

	code, out, errOut := cli(t, "registry", "check", "--url", srv.URL, v2)
	if code != exitFindings {
		t.Fatalf("check exit %d, want 1\nstdout %s\nstderr %s", code, out, errOut)
	}
	want := `OrderPlaced: subject "orders-order.placed" version 1: note: removed, but it has no default in version 1`
	if !strings.Contains(errOut, want) || strings.Contains(errOut, `"orders-order.placed" version 2`) {
		t.Fatalf("stderr:\n%s\nwant %q and nothing against version 2", errOut, want)
	}
	if !strings.Contains(errOut, "orders.acemq.yaml:") || !strings.Contains(out, "orders-order.placed: OrderPlaced: 2 versions held; acemq-gen: 1 break; registry: compatible") {
		t.Fatalf("stdout:\n%s\nstderr:\n%s", out, errOut)
	}

	// A command must read every registered writer: a field added without a
	// default breaks, one with a default does not.
	bad := registryDir(t, registryContract(placedV1, cancelV1+"\ncode: int"))
	_, _, errOut = cli(t, "registry", "check", "--url", srv.URL, bad)
	want = `CancelOrder: subject "orders-cancel.order" version 1: code: added without a default`
	if !strings.Contains(errOut, want) {
		t.Fatalf("stderr:\n%s\nwant %q", errOut, want)
	}
	good := registryDir(t, registryContract(placedV1, cancelV1+"\ncode: {type: int, default: 0}"))
	code, out, errOut = cli(t, "registry", "check", "--url", srv.URL, good)
	if code != exitOK || !strings.Contains(out, "registry check: 3 avro-registered messages checked against 4 registered versions; nothing breaks") {
		t.Fatalf("check of compatible contracts: exit %d\nstdout %s\nstderr %s", code, out, errOut)
	}
	if f.count("GET /subjects/{subject}/versions/{version}") < 4 {
		t.Errorf("check fetched %d versions, want every one", f.count("GET /subjects/{subject}/versions/{version}"))
	}
}

func TestRegistryCheckReportsTheRegistrysOwnVerdict(t *testing.T) {
	f, srv := newFakeRegistry(t, "", "", false)
	v1 := registryDir(t, registryContract(placedV1, cancelV1))
	cli(t, "registry", "push", "--url", srv.URL, v1)
	// Dropping a command field is fine by acemq-gen's backward rule for a
	// command, but a subject at FORWARD refuses it.
	f.setLevel("orders-cancel.order", "FORWARD")
	next := registryDir(t, registryContract(placedV1, "orderId: uuid"))
	code, out, errOut := cli(t, "registry", "check", "--url", srv.URL, next)
	if code != exitFindings {
		t.Fatalf("check exit %d, want 1\nstdout %s\nstderr %s", code, out, errOut)
	}
	if !strings.Contains(out, "orders-cancel.order: CancelOrder: 1 version held; acemq-gen: nothing breaks; registry: incompatible with version 1") ||
		!strings.Contains(errOut, "the registry's own check refuses the schema") {
		t.Fatalf("stdout:\n%s\nstderr:\n%s", out, errOut)
	}
	if f.count("POST /compatibility/subjects/{subject}/versions/latest") != 3 {
		t.Errorf("asked the registry %d times, want once per message", f.count("POST /compatibility/subjects/{subject}/versions/latest"))
	}
}

func TestRegistryCheckOfNewSubjectsBreaksNothing(t *testing.T) {
	_, srv := newFakeRegistry(t, "", "", false)
	code, out, errOut := cli(t, "registry", "check", "--url", srv.URL, registryDir(t, registryContract(placedV1, cancelV1)))
	if code != exitOK || strings.Count(out, "new subject; nothing to break") != 3 {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, out, errOut)
	}
}

func TestRegistryCredentialsComeFromUserAndEnvironmentAndAreNeverPrinted(t *testing.T) {
	const secret = "s3cr3t-pa55"
	_, srv := newFakeRegistry(t, "ci", secret, false)
	dir := registryDir(t, registryContract(placedV1, cancelV1))
	t.Setenv(registry.PasswordEnv, "wrong")
	code, out, errOut := cli(t, "registry", "push", "--url", srv.URL, "--user", "ci", dir)
	if code != exitUsage || !strings.Contains(errOut, "401") {
		t.Fatalf("a wrong password: exit %d, want 2 naming the 401\n%s", code, errOut)
	}
	t.Setenv(registry.PasswordEnv, secret)
	t.Setenv(registry.UserEnv, "ci")
	if code, _, errOut = cli(t, "registry", "push", "--url", srv.URL, dir); code != exitOK {
		t.Fatalf("ACEMQ_REGISTRY_USER and ACEMQ_REGISTRY_PASSWORD: exit %d\n%s", code, errOut)
	}
	// Credentials in the URL work too, and an unreachable registry names it
	// without the password.
	t.Setenv(registry.PasswordEnv, "")
	t.Setenv(registry.UserEnv, "")
	withCreds := strings.Replace(srv.URL, "http://", "http://ci:"+secret+"@", 1)
	if code, _, errOut = cli(t, "registry", "check", "--url", withCreds, dir); code != exitOK {
		t.Fatalf("credentials in the URL: exit %d\n%s", code, errOut)
	}
	srv.Close()
	code, out, errOut = cli(t, "registry", "check", "--url", withCreds, dir)
	if code != exitUsage || !strings.Contains(errOut, "cannot reach the schema registry at http://ci:xxxxx@127.0.0.1") {
		t.Fatalf("an unreachable registry: exit %d, want 2\n%s", code, errOut)
	}
	if strings.Contains(out+errOut, secret) {
		t.Fatalf("the password was printed:\n%s%s", out, errOut)
	}
}

func TestRegistryOverTLSTrustsTheCAGivenWithCA(t *testing.T) {
	_, srv := newFakeRegistry(t, "", "", true)
	dir := registryDir(t, registryContract(placedV1, cancelV1))
	code, _, errOut := cli(t, "registry", "check", "--url", srv.URL, dir)
	if code != exitUsage || !strings.Contains(errOut, "certificate") {
		t.Fatalf("an unknown CA: exit %d, want 2 naming the certificate\n%s", code, errOut)
	}
	ca := filepath.Join(t.TempDir(), "ca.pem")
	pemBytes := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	writeText(t, ca, string(pemBytes))
	if code, out, errOut := cli(t, "registry", "check", "--url", srv.URL, "--ca", ca, dir); code != exitOK {
		t.Fatalf("--ca: exit %d\n%s%s", code, out, errOut)
	}
	notPEM := filepath.Join(t.TempDir(), "x.pem")
	writeText(t, notPEM, "nothing")
	if code, _, errOut := cli(t, "registry", "check", "--url", srv.URL, "--ca", notPEM, dir); code != exitUsage || !strings.Contains(errOut, "no PEM certificate") {
		t.Fatalf("a --ca without certificates: exit %d\n%s", code, errOut)
	}
}

func TestRegistryTimesOutOnARegistryThatDoesNotAnswer(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	start := time.Now()
	code, _, errOut := cli(t, "registry", "check", "--url", srv.URL, "--timeout", "200ms", registryDir(t, registryContract(placedV1, cancelV1)))
	if code != exitUsage || !strings.Contains(errOut, "cannot reach the schema registry") || time.Since(start) > 5*time.Second {
		t.Fatalf("exit %d after %s\n%s", code, time.Since(start), errOut)
	}
}

func TestRegistryUsageErrors(t *testing.T) {
	t.Setenv(registry.URLEnv, "")
	dir := registryDir(t, registryContract(placedV1, cancelV1))
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"registry"}, "name a subcommand: push or check"},
		{[]string{"registry", "psuh", dir}, `did you mean "push"?`},
		{[]string{"registry", "check", dir}, "needs --url"},
		{[]string{"registry", "check", "--url", "ftp://x", dir}, "not an http or https URL"},
		{[]string{"registry", "push", "--url", "http://x", "--timeout", "0s", dir}, "--timeout must be positive"},
	} {
		code, _, errOut := cli(t, tc.args...)
		if code != exitUsage || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
	code, out, _ := cli(t, "registry", "--help")
	if code != exitOK || !strings.Contains(out, "ACEMQ_REGISTRY_PASSWORD") {
		t.Errorf("registry --help: exit %d\n%s", code, out)
	}
}

func TestRegistryReportsContractErrorsBeforeCallingTheRegistry(t *testing.T) {
	f, srv := newFakeRegistry(t, "", "", false)
	dir := registryDir(t, "acemq: 1\ndomain: orders\nevents:\n  OrderPlaced:\n    fields:\n      orderId: nosuchtype\n")
	code, _, errOut := cli(t, "registry", "push", "--url", srv.URL, dir)
	if code != exitFindings || !strings.Contains(errOut, "orders.acemq.yaml:6:") {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	if f.count("POST /subjects/{subject}/versions") != 0 {
		t.Fatal("a contract with errors reached the registry")
	}
}

func TestRegistryOnContractsWithoutAvroRegisteredMessagesSaysSo(t *testing.T) {
	f, srv := newFakeRegistry(t, "", "", false)
	dir := registryDir(t, "acemq: 1\ndomain: orders\nevents:\n  OrderPlaced:\n    fields:\n      orderId: uuid\n")
	for _, sub := range []string{"push", "check"} {
		code, out, errOut := cli(t, "registry", sub, "--url", srv.URL, dir)
		if code != exitOK || !strings.Contains(errOut, "no message of the contracts (1 message) uses codec avro-registered") {
			t.Errorf("%s: exit %d\nstdout %s\nstderr %s", sub, code, out, errOut)
		}
	}
	if f.count("POST /subjects/{subject}/versions") != 0 {
		t.Error("a schema was registered")
	}
}
