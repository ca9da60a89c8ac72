package main

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/ops"
	"github.com/acemq/acemq-gen/generator"
	"github.com/acemq/acemq-gen/generator/contractspec"
)

func TestDLQAndPlanReportUsageMistakesWithExitTwo(t *testing.T) {
	for _, args := range [][]string{
		{"dlq"},
		{"dlq", "purge"},
		{"dlq", "list", "./contracts"},
		{"dlq", "show", "--url", "amqp://x"},
		{"dlq", "redrive", "--url", "amqp://x", "--rate", "fast", "q.dlq", "./c"},
		{"plan", "./contracts"},
		{"plan", "--url", "amqp://x"},
	} {
		if code, _, errOut := cli(t, args...); code != exitUsage || errOut == "" {
			t.Errorf("%v: exit %d (%q); want 2 with a message", args, code, errOut)
		}
	}
}

func TestPlanThatCannotReachTheBrokerExitsTwoWithoutItsPassword(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "orders.acemq.yaml"), []byte(ordersContract), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := cli(t, "plan", "--url", "amqp://user:s3cret@127.0.0.1:1/", dir)
	if code != exitUsage || strings.Contains(out+errOut, "s3cret") {
		t.Errorf("exit %d, %q %q; want 2 and no password", code, out, errOut)
	}
}

func TestACEMQKeysAreReadAndNeverEchoed(t *testing.T) {
	if _, err := ops.ParseKeys("k1=MDEyMzQ1Njc4OWFiY2RlZg==,k2=MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY="); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"k1", "k1=!!notbase64", "k1=c2hvcnQ="} {
		_, err := ops.ParseKeys(bad)
		if err == nil || strings.Contains(err.Error(), strings.TrimPrefix(bad, "k1=")) && bad != "k1" {
			t.Errorf("ops.ParseKeys(%q) = %v; want an error that does not echo the secret", bad, err)
		}
	}
}

func TestContractTopologyIsWhatGeneratedCodeDeclares(t *testing.T) {
	assertContractPlan(t, "orders.acemq.yaml", []byte(ordersContract), "billing", []string{
		"declare exchange orders (topic, durable)",
		"declare queue orders.cancel-order (durable, quorum, x-dead-letter-exchange=acemq.dlx, x-dead-letter-routing-key=orders.cancel-order.dlq)",
		"declare queue billing.order.placed (durable, quorum",
		"bind orders -> orders.cancel-order (cancel.order)",
		"bind orders -> billing.order.placed (order.placed)",
		"bind acemq.dlx -> billing.order.placed.dlq (billing.order.placed.dlq)",
	})
}

// The contract's queue keys (delivery-limit, leader-locator,
// dead-letter-strategy, set-aside-queues) reach plan's expected topology as
// they reach generated code's, so plan reports no drift on a broker that
// generated code declared.
func TestContractTopologyCarriesTheContractsQueueKeys(t *testing.T) {
	data, err := os.ReadFile("../../testdata/golden/delivery_limit/jobs.acemq.yaml")
	if err != nil {
		t.Fatal(err)
	}
	assertContractPlan(t, "jobs.acemq.yaml", data, "audit", []string{
		"declare queue jobs.run-job (durable, quorum, x-dead-letter-exchange=acemq.dlx, x-dead-letter-routing-key=jobs.run-job.dlq, x-dead-letter-strategy=at-least-once, x-delivery-limit=3, x-overflow=reject-publish)",
		"declare queue jobs.run-job.dlq (durable, quorum)",
		"declare queue jobs.cancel-job.dlq (durable, classic)",
		"declare queue jobs.job-status (durable, quorum, x-dead-letter-exchange=acemq.dlx, x-dead-letter-routing-key=jobs.job-status.dlq, x-delivery-limit=2)",
		"declare queue jobs.job-status.parked (durable, quorum)",
		"x-delivery-limit=5, x-queue-leader-locator=balanced)",
		"declare queue audit.job.finished.dlq (durable, quorum)",
	})
}

// assertContractPlan fails t for each of wants that the plan of the
// topology of contract data (at path), with consumer's queues, does not
// contain.
func assertContractPlan(t *testing.T, path string, data []byte, consumer string, wants []string) {
	t.Helper()
	entries, ds := generator.Catalog([]generator.Source{{Path: path, Data: data}})
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	topo, err := contractspec.Topology(entries, []string{consumer})
	if err != nil {
		t.Fatal(err)
	}
	plan := strings.Join(topo.Plan(), "\n")
	for _, want := range wants {
		if !strings.Contains(plan, want) {
			t.Errorf("the contract topology lacks %q:\n%s", want, plan)
		}
	}
}

func TestKeysEntryWithoutIDHidesKey(t *testing.T) {
	secrets := []string{
		"U0VDUkVUc2VjcmV0U0VDUkVUc2VjcmV0U0VDUkVUMTI=", // 32 bytes, one '='
		"U0VDUkVUc2VjcmV0U0VDUkVUc2Vj",                 // 16 bytes... padded below
		"U0VDUkVUc2VjcmV0U0VDUkVUc2VjcmV0U0VDUkVU",     // 30 bytes, no padding
		"U0VDUkVUc2VjcmV0U0VDUkVUc2VjcmV0",             // 24 bytes, no padding
	}
	secrets[1] = base64.StdEncoding.EncodeToString([]byte("SECRETsecretSECR"))
	for _, secret := range secrets {
		for _, entry := range []string{
			secret,                                  // no id
			secret + "=k1",                          // secret=id
			"=" + secret,                            // empty id
			"k1=" + secret[:len(secret)-3],          // truncated
			"k0=MDEyMzQ1Njc4OWFiY2RlZg==," + secret, // a later entry without its id
		} {
			_, err := ops.ParseKeys(entry)
			if err == nil {
				t.Fatalf("ops.ParseKeys(%q) accepted it", entry)
			}
			msg := err.Error()
			core := strings.TrimRight(secret, "=")
			for i := 0; i+8 <= len(core); i++ {
				if strings.Contains(msg, core[i:i+8]) {
					t.Fatalf("ops.ParseKeys(%q) = %q: echoes the secret", entry, msg)
				}
			}
			if !strings.Contains(msg, "entry ") {
				t.Errorf("ops.ParseKeys(%q) = %q: does not name the entry by position", entry, msg)
			}
		}
	}
	if _, err := ops.ParseKeys("k1=" + secrets[2]); err == nil || !strings.Contains(err.Error(), "entry 1") || strings.Contains(err.Error(), "k1") {
		t.Errorf("a 30-byte key: %v; want entry 1 named by position only", err)
	}
}
