package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The upgrade story of docs/upgrading.md: contract v1, v2 adding a field
// with a default, both over avro-registered.
const (
	upgradeV1 = `acemq: 1
domain: orders
package: orders
namespace: com.example.orders
codec: avro-registered
events:
  OrderPlaced:
    fields:
      orderId: uuid
      cents: long
commands:
  RefundOrder:
    fields:
      orderId: uuid
      cents: long
`
	upgradeV2 = `acemq: 1
domain: orders
package: orders
namespace: com.example.orders
codec: avro-registered
events:
  OrderPlaced:
    fields:
      orderId: uuid
      cents: long
      currency: {type: string, default: GBP}
commands:
  RefundOrder:
    fields:
      orderId: uuid
      cents: long
      reason: {type: string, default: unspecified}
`
)

// upgradeRepo is a repository whose last two commits are v1 and v2 of
// contracts/orders.acemq.yaml; it returns the contracts directory.
func upgradeRepo(t *testing.T) (gitRepo, string) {
	r := newGitRepo(t)
	r.commit(map[string]string{"contracts/orders.acemq.yaml": upgradeV1})
	r.commit(map[string]string{"contracts/orders.acemq.yaml": upgradeV2})
	return r, filepath.Join(r.dir, "contracts")
}

func TestUpgradeStoryV2PassesCompatAgainstTheCommitBefore(t *testing.T) {
	_, contracts := upgradeRepo(t)
	for _, full := range [][]string{nil, {"--full"}} {
		args := append([]string{"compat", "--against", "git:HEAD~1", contracts}, full...)
		if code, _, errOut := cli(t, args...); code != exitOK {
			t.Fatalf("%q: exit %d, stderr:\n%s", args, code, errOut)
		}
	}
}

func TestUpgradeStoryBreakingVariantsFailCompatAndTheirMirrorImagesPass(t *testing.T) {
	_, contracts := upgradeRepo(t)
	cases := []compatCase{
		{"an event drops a field its old readers need", "      cents: long\n      currency", "      currency", exitFindings,
			":7:3: OrderPlaced: cents: removed, but it has no default in BASE (rule: an event must stay readable by consumers built from BASE: forward compatibility)"},
		{"a command's long became int", "      cents: long\n      reason", "      cents: int\n      reason", exitFindings,
			":16:7: RefundOrder: cents: type changed from long to int, and Avro cannot read a written long as int (rule: a command must stay readable when sent by producers built from BASE: backward compatibility)"},
		{"an event's long became int", "      cents: long\n      currency", "      cents: int\n      currency", exitOK, ""},
		{"a command drops a field", "      cents: long\n      reason", "      reason", exitOK, ""},
	}
	name := filepath.Join(contracts, "orders.acemq.yaml")
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			writeText(t, name, strings.Replace(upgradeV2, c.from, c.to, 1))
			c.expect(t, name+c.want, "compat", "--against", "git:HEAD", contracts)
		})
	}
}

// TestUpgradeStoryOldAndNewServicesReadEachOther generates v1 and v2 into
// two packages of a module outside the repository and runs a program on
// memory:// with one registry: v1 producers to v2 consumers get the new
// fields' defaults, v2 producers to v1 consumers are read by the old schema.
func TestUpgradeStoryOldAndNewServicesReadEachOther(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	mod := t.TempDir()
	for pkg, contract := range map[string]string{"ordersv1": upgradeV1, "ordersv2": upgradeV2} {
		generateInto(t, mod, pkg, contract)
	}
	writeUpgradeModule(t, mod, root)
	cmd := exec.Command("go", "run", ".")
	cmd.Dir = mod
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the upgrade program failed: %v\n%s", err, out)
	}
	for _, want := range []string{
		"v2 consumer read v1 OrderPlaced: cents=1250 currency=GBP",
		"v1 consumer read v2 OrderPlaced: cents=990",
		"v2 consumer read v1 RefundOrder: cents=300 reason=unspecified",
		"v1 consumer read v2 RefundOrder: cents=400",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// generateInto runs acemq-gen generate on contract, renamed to package pkg,
// writing mod/pkg/.
func generateInto(t *testing.T, mod, pkg, contract string) {
	t.Helper()
	src := filepath.Join(t.TempDir(), "orders.acemq.yaml")
	writeText(t, src, strings.Replace(contract, "package: orders", "package: "+pkg, 1))
	if code, _, errOut := cli(t, "generate", "-o", mod, src); code != exitOK {
		t.Fatalf("generate %s: exit %d, stderr:\n%s", pkg, code, errOut)
	}
}

func writeUpgradeModule(t *testing.T, mod, root string) {
	t.Helper()
	gomod := strings.Join([]string{"module example.com/upgrade", "", "go 1.26", "",
		"require github.com/acemq/acemq-gen v0.0.0", "",
		"replace github.com/acemq/acemq-gen => " + root, ""}, "\n")
	writeText(t, filepath.Join(mod, "go.mod"), gomod)
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	writeText(t, filepath.Join(mod, "go.sum"), string(sum))
	writeText(t, filepath.Join(mod, "main.go"), upgradeProgram)
}

// upgradeProgram exchanges each message both ways between the v1 and v2
// packages over one connection and one registry.
const upgradeProgram = `package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"example.com/upgrade/ordersv1"
	"example.com/upgrade/ordersv2"
	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/avro"
)

const orderID = "6b1f3c2e-9d4a-4e6f-8a1b-2c3d4e5f6a7b"

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := run(ctx); err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context) error {
	reg := avro.NewMemoryRegistry()
	conn, err := acemq.Connect(ctx, "memory://upgrade", avro.WithRegistry(reg))
	if err != nil {
		return err
	}
	defer conn.Close()
	if err := ordersv2.DeclareTopology(ctx, conn); err != nil {
		return err
	}
	if err := events(ctx, conn); err != nil {
		return err
	}
	return commands(ctx, conn)
}

// receive subscribes with consume, runs send, and returns the first
// payload handled, closing the consumer.
func receive[T any](ctx context.Context, consume func(acemq.Handler[T]) (*acemq.Consumer, error), send func() error) (T, error) {
	var zero T
	got := make(chan T, 16)
	c, err := consume(func(_ context.Context, m acemq.Message[T]) acemq.Ack {
		got <- m.Payload
		return acemq.Accept()
	})
	if err != nil {
		return zero, err
	}
	defer c.Close()
	if err := send(); err != nil {
		return zero, err
	}
	select {
	case p := <-got:
		return p, nil
	case <-ctx.Done():
		return zero, ctx.Err()
	}
}

func events(ctx context.Context, conn *acemq.Conn) error {
	v2, err := receive(ctx, func(h acemq.Handler[ordersv2.OrderPlaced]) (*acemq.Consumer, error) {
		return ordersv2.ConsumeOrderPlaced(ctx, conn, "billing", h)
	}, func() error {
		return ordersv1.NewPublisher(conn).PublishOrderPlaced(ctx, ordersv1.OrderPlaced{OrderID: orderID, Cents: 1250})
	})
	if err != nil {
		return err
	}
	fmt.Printf("v2 consumer read v1 OrderPlaced: cents=%d currency=%s\n", v2.Cents, v2.Currency)
	v1, err := receive(ctx, func(h acemq.Handler[ordersv1.OrderPlaced]) (*acemq.Consumer, error) {
		return ordersv1.ConsumeOrderPlaced(ctx, conn, "shipping", h)
	}, func() error {
		return ordersv2.NewPublisher(conn).PublishOrderPlaced(ctx, ordersv2.OrderPlaced{OrderID: orderID, Cents: 990, Currency: "EUR"})
	})
	if err != nil {
		return err
	}
	fmt.Printf("v1 consumer read v2 OrderPlaced: cents=%d\n", v1.Cents)
	return nil
}

func commands(ctx context.Context, conn *acemq.Conn) error {
	v2, err := receive(ctx, func(h acemq.Handler[ordersv2.RefundOrder]) (*acemq.Consumer, error) {
		return ordersv2.ConsumeRefundOrder(ctx, conn, h)
	}, func() error {
		return ordersv1.NewPublisher(conn).SendRefundOrder(ctx, ordersv1.RefundOrder{OrderID: orderID, Cents: 300})
	})
	if err != nil {
		return err
	}
	fmt.Printf("v2 consumer read v1 RefundOrder: cents=%d reason=%s\n", v2.Cents, v2.Reason)
	v1, err := receive(ctx, func(h acemq.Handler[ordersv1.RefundOrder]) (*acemq.Consumer, error) {
		return ordersv1.ConsumeRefundOrder(ctx, conn, h)
	}, func() error {
		return ordersv2.NewPublisher(conn).SendRefundOrder(ctx, ordersv2.RefundOrder{OrderID: orderID, Cents: 400, Reason: "damaged"})
	})
	if err != nil {
		return err
	}
	fmt.Printf("v1 consumer read v2 RefundOrder: cents=%d\n", v1.Cents)
	return nil
}
`
