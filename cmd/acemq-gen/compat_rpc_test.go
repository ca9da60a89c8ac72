package main

import (
	"strings"
	"testing"
)

const rpcV1 = `acemq: 1
domain: orders
rpc:
  GetOrderSummary:
    request:
      fields: {orderId: uuid, verbose: boolean}
    response:
      fields: {orderId: uuid, cents: long}
`

// compatCase is a contract edit (from replaced by to) and what compat says
// of it: its exit code and a part of its stderr.
type compatCase struct {
	name, from, to string
	wantCode       int
	want           string
}

// expect runs the CLI with args and fails t unless it exits c.wantCode with
// c.want in its stderr; the failure shows shownWant as what was wanted.
func (c compatCase) expect(t *testing.T, shownWant string, args ...string) {
	t.Helper()
	code, _, errOut := cli(t, args...)
	if code != c.wantCode || !strings.Contains(errOut, c.want) {
		t.Fatalf("exit %d (want %d), stderr:\n%s\nwant %q", code, c.wantCode, errOut, shownWant)
	}
}

func TestCompatRPCRequestsAreBackwardAndResponsesForward(t *testing.T) {
	cases := []compatCase{
		{"a request gaining a field without a default is refused", "verbose: boolean}", "verbose: boolean, locale: string}", exitFindings,
			"GetOrderSummaryRequest: locale: added without a default (rule: an RPC request must stay readable when sent by callers built from BASE: backward compatibility)"},
		{"a request dropping a field passes", "orderId: uuid, verbose: boolean}", "orderId: uuid}", exitOK, ""},
		{"a response dropping a field its callers need is refused", "orderId: uuid, cents: long}", "orderId: uuid}", exitFindings,
			"GetOrderSummaryResponse: cents: removed, but it has no default in BASE (rule: an RPC response must stay readable by callers built from BASE: forward compatibility)"},
		{"a response gaining a field passes", "cents: long}", "cents: long, note: string}", exitOK, ""},
		{"a new queue strands the callers", "  GetOrderSummary:\n", "  GetOrderSummary:\n    queue: orders.summaries\n", exitFindings,
			`GetOrderSummaryRequest: queue changed from "orders.get-order-summary" to "orders.summaries"`},
		{"a removed RPC breaks its callers", "  GetOrderSummary:", "  GetOrderTotals:", exitFindings,
			"GetOrderSummaryRequest: removed; callers built from BASE still send it"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			base, next := compatDirs(t, rpcV1, strings.Replace(rpcV1, c.from, c.to, 1))
			c.expect(t, c.want, "compat", "--against", base, next)
		})
	}
}
