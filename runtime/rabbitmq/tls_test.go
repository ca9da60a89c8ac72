package rabbitmq

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/internal/faultlock"
)

// tlsBroker returns ACEMQ_TEST_AMQPS_URL and ACEMQ_TEST_CA (the TLS listener
// scripts/broker.sh opens with RABBIT_TLS_DIR, and the CA it generated). The
// listener is the fault node's: it is held for t, as faultNode holds it.
func tlsBroker(t *testing.T) (amqpsURL, caFile string) {
	t.Helper()
	if port := os.Getenv("ACEMQ_TEST_FAULT_PORT"); port != "" {
		faultlock.Hold(t, port)
	}
	return brokerEnvPair(t, "start a TLS listener with `RABBIT_TLS_DIR=/tmp/acemq-tls scripts/broker.sh start 5699`, then export "+
		"ACEMQ_TEST_AMQPS_URL=$(scripts/broker.sh tls-url 5699) ACEMQ_TEST_CA=/tmp/acemq-tls/ca.pem (scripts/test.sh does this)",
		"ACEMQ_TEST_AMQPS_URL", "ACEMQ_TEST_CA")
}

// withPassword returns raw with its password replaced.
func withPassword(t *testing.T, raw, password string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	u.User = url.UserPassword(u.User.Username(), password)
	return u.String()
}

// otherCA writes a CA certificate that signed nothing the broker holds.
func otherCA(t *testing.T) string {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(7), Subject: pkix.Name{CommonName: "not the broker's CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "other-ca.pem")
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestTLSConnectionTrustingTheBrokersCAPublishesAndConsumes(t *testing.T) {
	amqpsURL, ca := tlsBroker(t)
	ctx, c := ctxT(t), newCleanerAt(t, os.Getenv("ACEMQ_TEST_FAULT_AMQP_URL"))
	conn, err := acemq.Connect(ctx, amqpsURL, TrustCA(ca))
	if err != nil {
		t.Fatalf("amqps with the broker's CA trusted: %v", err)
	}
	defer conn.Close()
	q := c.queue(unique("tls"))
	if err := conn.DeclareQueue(ctx, q, acemq.OfType(acemq.QueueClassic)); err != nil {
		t.Fatal(err)
	}
	if err := acemq.NewPublisher[order](conn, "", q).Send(ctx, order{ID: 1}); err != nil {
		t.Fatalf("publish over TLS: %v", err)
	}
	if n, err := conn.MessageCount(ctx, q); err != nil || n != 1 {
		t.Fatalf("MessageCount over TLS = %d, %v; want 1", n, err)
	}
}

func TestTLSWithWithTLSRootsWorksToo(t *testing.T) {
	amqpsURL, ca := tlsBroker(t)
	pemBytes, err := os.ReadFile(ca)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(pemBytes)
	tr, err := Dial(ctxT(t), amqpsURL, WithTLS(&tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}))
	if err != nil {
		t.Fatalf("amqps with WithTLS roots: %v", err)
	}
	_ = tr.Close()
}

func TestTLSWithAnotherCAIsRefusedAndThePasswordIsNeverPrinted(t *testing.T) {
	amqpsURL, _ := tlsBroker(t)
	secret := "s3cr3t-Tls-pa55"
	_, err := acemq.Connect(ctxT(t), withPassword(t, amqpsURL, secret), TrustCA(otherCA(t)))
	if err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Fatalf("amqps trusting another CA: %v, want a certificate error", err)
	}
	if strings.Contains(err.Error(), secret) || !strings.Contains(err.Error(), "amqps://") {
		t.Fatalf("err = %q, want the redacted amqps URL and never the password", err)
	}
}

func TestWrongPasswordOverTLSIsRefusedWithoutPrintingIt(t *testing.T) {
	amqpsURL, ca := tlsBroker(t)
	secret := "n0t-The-Pa55word"
	_, err := Dial(ctxT(t), withPassword(t, amqpsURL, secret), TrustCA(ca))
	if err == nil || strings.Contains(err.Error(), secret) || !strings.Contains(err.Error(), "password") {
		t.Fatalf("wrong password: %v, want the broker's refusal of the credentials, without printing them", err)
	}
	t.Logf("wrong password: %v", err)
}

func TestRecoveryEventsNeverCarryThePassword(t *testing.T) {
	ev := newEvents()
	tr := openTransport(t, OnRecovery(ev.record))
	secret := "r3dial-Secret"
	tr.setURL("amqp://guest:" + secret + "@127.0.0.1:1/")
	tr.dropConnection()
	ev.waitFor(t, RecoveryLost)
	ev.waitFor(t, RecoveryRetrying)
	second := ev.waitFor(t, RecoveryRetrying)
	if second.Err == nil || strings.Contains(second.Err.Error(), secret) {
		t.Fatalf("retrying event error = %v, want the failed redial without the password", second.Err)
	}
}

func TestMalformedURLsAreRefusedWithoutPrintingThePassword(t *testing.T) {
	for _, raw := range []string{"amqp://user:m4lformed-secret@host:notaport/", "amqps://user:m4lformed-secret@ho st/", "http://user:m4lformed-secret@host/"} {
		_, err := Dial(context.Background(), raw)
		if err == nil || strings.Contains(err.Error(), "m4lformed-secret") || !strings.Contains(err.Error(), "not a valid AMQP URL") {
			t.Errorf("Dial(%q) = %v, want a refusal that does not print the password", strings.ReplaceAll(raw, "m4lformed-secret", "***"), err)
		}
	}
}

func TestTLSOptionsOnAPlaintextURLAreRefused(t *testing.T) {
	ca := otherCA(t)
	for name, opt := range map[string]acemq.ConnOption{"WithTLS": WithTLS(&tls.Config{}), "TrustCA": TrustCA(ca)} {
		_, err := acemq.Connect(context.Background(), "amqp://guest:pl4in-secret@127.0.0.1:1/", opt)
		if err == nil || !strings.Contains(err.Error(), "amqps://") || strings.Contains(err.Error(), "pl4in-secret") {
			t.Errorf("%s with amqp://: %v, want a refusal asking for amqps:// without the password", name, err)
		}
	}
}

func TestInvalidTLSOptionsFailBeforeDialling(t *testing.T) {
	empty := filepath.Join(t.TempDir(), "empty.pem")
	if err := os.WriteFile(empty, []byte("no certificate here\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := map[string]acemq.ConnOption{
		"a nil *tls.Config": WithTLS(nil),
		"cannot read":       TrustCA(filepath.Join(t.TempDir(), "missing.pem")),
		"holds no PEM":      TrustCA(empty),
	}
	for want, opt := range cases {
		_, err := Dial(context.Background(), "amqps://127.0.0.1:1/", opt)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.HasPrefix(err.Error(), "acemq: cannot connect: rabbitmq.") {
			t.Errorf("err = %v, want acemq: cannot connect: naming the option and %q", err, want)
		}
	}
}
