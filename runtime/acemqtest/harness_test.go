package acemqtest_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemqtest"
	"github.com/acemq/acemq-gen/runtime/patterns"
)

// scenarioEnv names the scenario a subprocess of this test binary runs, to
// fail on purpose, so that a test can read the failure.
const scenarioEnv = "ACEMQTEST_HARNESS_SCENARIO"

// retrying consumes queue on h's connection with policy, failing the first
// fails attempts of every message; block, when not nil, is waited on first.
func retrying(t *testing.T, h *acemqtest.Harness, queue string, policy acemq.RetryPolicy, fails int, block chan struct{}) {
	t.Helper()
	if err := h.Conn().DeclareQueue(t.Context(), queue); err != nil {
		t.Fatal(err)
	}
	_, err := acemq.Consume(t.Context(), h.Conn(), queue, func(_ context.Context, m acemq.Message[string]) acemq.Ack {
		if block != nil {
			<-block
		}
		if m.Envelope.Attempt <= fails {
			return acemq.Retry(errors.New("not yet"))
		}
		return acemq.Accept()
	}, acemq.RetryWith(policy))
	if err != nil {
		t.Fatal(err)
	}
}

// send publishes body to queue on the default exchange.
func send(t *testing.T, h *acemqtest.Harness, queue, body string) {
	t.Helper()
	if err := acemq.NewPublisher[string](h.Conn(), "", queue).Send(t.Context(), body); err != nil {
		t.Fatal(err)
	}
}

// TestHarnessSettleRunsAWaitOfHoursInVirtualTime: Settle moves the clock
// from one retry wait to the next, so a ladder of 5 h settles at once.
func TestHarnessSettleRunsAWaitOfHoursInVirtualTime(t *testing.T) {
	start := time.Now()
	acemqtest.Run(t, func(t *testing.T, h *acemqtest.Harness) {
		retrying(t, h, "work", acemq.FixedRetry(2, 5*time.Hour), 1, nil)
		send(t, h, "work", "job")
		h.Settle()
		h.ExpectSettlements("work",
			acemqtest.Settled{Attempt: 1, At: 0, Action: acemq.ActionRetried},
			acemqtest.Settled{Attempt: 2, At: 5 * time.Hour, Action: acemq.ActionAccepted})
		if h.Elapsed() != 5*time.Hour {
			t.Errorf("Settle left the clock at +%s, want +5h, when the work ended", h.Elapsed())
		}
	})
	if real := time.Since(start); real > time.Second {
		t.Errorf("5 h of retries took %s of real time", real)
	}
}

// TestHarnessAdvanceLeavesLaterWaitsPending: Advance moves the clock by
// exactly its argument; a wait due later is still pending afterwards.
func TestHarnessAdvanceLeavesLaterWaitsPending(t *testing.T) {
	acemqtest.Run(t, func(t *testing.T, h *acemqtest.Harness) {
		retrying(t, h, "work", acemq.FixedRetry(2, 2*time.Hour), 1, nil)
		send(t, h, "work", "job")
		h.Advance(time.Hour)
		if got := len(h.Settlements("work")); got != 1 || h.Elapsed() != time.Hour {
			t.Errorf("after Advance(1h): %d settlements at +%s, want 1 at +1h", got, h.Elapsed())
		}
		h.Advance(time.Hour)
		h.ExpectSettlements("work",
			acemqtest.Settled{Attempt: 1, At: 0, Action: acemq.ActionRetried},
			acemqtest.Settled{Attempt: 2, At: 2 * time.Hour, Action: acemq.ActionAccepted})
	})
}

// TestHarnessRunWithGivesTheConnectionItsOptions: a connection option
// given to RunWith (here the default retry policy) applies to the harness's
// connection.
func TestHarnessRunWithGivesTheConnectionItsOptions(t *testing.T) {
	acemqtest.RunWith(t, []acemq.ConnOption{acemq.WithRetry(acemq.FixedRetry(2, 3*time.Hour))}, func(t *testing.T, h *acemqtest.Harness) {
		if err := h.Conn().DeclareQueue(t.Context(), "work"); err != nil {
			t.Fatal(err)
		}
		_, err := acemq.Consume(t.Context(), h.Conn(), "work", func(_ context.Context, m acemq.Message[string]) acemq.Ack {
			if m.Envelope.Attempt == 1 {
				return acemq.Retry(errors.New("not yet"))
			}
			return acemq.Accept()
		})
		if err != nil {
			t.Fatal(err)
		}
		send(t, h, "work", "job")
		h.Settle()
		h.ExpectSettlements("work",
			acemqtest.Settled{Attempt: 1, At: 0, Action: acemq.ActionRetried},
			acemqtest.Settled{Attempt: 2, At: 3 * time.Hour, Action: acemq.ActionAccepted})
	})
}

// TestHarnessHorizonLeavesWaitsBeyondItPending: with Horizon(1h), Settle
// does not run a retry due in 2 h, and the clock stays where it was.
func TestHarnessHorizonLeavesWaitsBeyondItPending(t *testing.T) {
	acemqtest.Run(t, func(t *testing.T, h *acemqtest.Harness) {
		retrying(t, h, "work", acemq.FixedRetry(2, 2*time.Hour), 1, nil)
		h.Horizon(time.Hour)
		send(t, h, "work", "job")
		h.Settle()
		if got := len(h.Settlements("work")); got != 1 || h.Elapsed() != 0 {
			t.Errorf("Settle within a 1 h horizon: %d settlements at +%s, want 1 at +0s", got, h.Elapsed())
		}
		h.Horizon(0)
		h.Settle()
		if got := len(h.Settlements("work")); got != 2 || h.Elapsed() != 2*time.Hour {
			t.Errorf("Settle without a horizon: %d settlements at +%s, want 2 at +2h", got, h.Elapsed())
		}
	})
}

// TestHarnessCancelledScheduledMessageIsNotInFlight: a message scheduled
// an hour ahead and cancelled is dropped by the scheduler when due; Settle
// then returns, at +1 h, with nothing delivered.
func TestHarnessCancelledScheduledMessageIsNotInFlight(t *testing.T) {
	acemqtest.Run(t, func(t *testing.T, h *acemqtest.Harness) {
		scheduler, err := patterns.NewScheduler(t.Context(), h.Conn())
		if err != nil {
			t.Fatal(err)
		}
		defer scheduler.Close()
		retrying(t, h, "work", acemq.NoRetry(), 0, nil)
		s, err := acemq.NewPublisher[string](h.Conn(), "", "work").SendAfter(t.Context(), time.Hour, "job")
		if err != nil {
			t.Fatal(err)
		}
		if err := acemq.CancelScheduled(t.Context(), h.Conn(), s.ID()); err != nil {
			t.Fatal(err)
		}
		h.Settle()
		h.ExpectSettlements("work")
		if scheduler.Cancelled() != 1 || h.Elapsed() != time.Hour {
			t.Errorf("at +%s the scheduler cancelled %d, want 1 at +1h", h.Elapsed(), scheduler.Cancelled())
		}
	})
}

// failingScenarios are scenarios that must fail, run in a subprocess by
// TestHarnessFailuresNameWhatIsLeft.
var failingScenarios = map[string]func(t *testing.T, h *acemqtest.Harness){
	// leaked-goroutine: a goroutine blocked forever on a channel.
	"leaked-goroutine": func(t *testing.T, h *acemqtest.Harness) {
		ch := make(chan int)
		go leakyWorker(ch)
	},
	// blocked-scenario: the scenario itself waits forever.
	"blocked-scenario": func(t *testing.T, h *acemqtest.Harness) {
		<-make(chan int)
	},
	// unsettled: the scenario ends while a retry waits.
	"unsettled": func(t *testing.T, h *acemqtest.Harness) {
		retrying(t, h, "work", acemq.FixedRetry(2, time.Hour), 1, nil)
		send(t, h, "work", "job")
	},
	// blocked-handler: a handler that never returns.
	"blocked-handler": func(t *testing.T, h *acemqtest.Harness) {
		retrying(t, h, "work", acemq.NoRetry(), 0, make(chan struct{}))
		send(t, h, "work", "job")
		h.Settle()
	},
	// wrong-rpc-error: a reply that is not the declared error expected.
	"wrong-rpc-error": func(t *testing.T, h *acemqtest.Harness) {
		if err := h.Conn().DeclareQueue(t.Context(), "status"); err != nil {
			t.Fatal(err)
		}
		srv, err := patterns.Serve(t.Context(), h.Conn(), "status", func(context.Context, acemq.Message[string]) (string, error) {
			return "", errors.New("the database is down")
		})
		if err != nil {
			t.Fatal(err)
		}
		defer srv.Close()
		client := patterns.NewClient[string, string](h.Conn(), "", "status")
		defer client.Close()
		_, _ = client.Do(t.Context(), "order-1")
		h.Settle()
		h.ExpectAnswered("status", patterns.NewError("NotFound"))
	},
	// wrong-attempts: an expectation that does not hold prints the story.
	"wrong-attempts": func(t *testing.T, h *acemqtest.Harness) {
		retrying(t, h, "work", acemq.FixedRetry(3, time.Minute), 2, nil)
		send(t, h, "work", "job")
		h.Settle()
		h.ExpectSettlements("work", acemqtest.Settled{Attempt: 1, Action: acemq.ActionAccepted})
	},
}

// leakyWorker blocks forever.
func leakyWorker(ch chan int) { <-ch }

// TestHarnessFailingScenario runs one of failingScenarios when the
// subprocess TestHarnessFailuresNameWhatIsLeft starts tells it which;
// otherwise it only checks that each scenario has a body (scripts/test.sh
// lets no test skip).
func TestHarnessFailingScenario(t *testing.T) {
	name := os.Getenv(scenarioEnv)
	if name == "" {
		for n, fn := range failingScenarios {
			if fn == nil {
				t.Errorf("failing scenario %q has no body", n)
			}
		}
		return
	}
	acemqtest.Run(t, failingScenarios[name])
}

// TestHarnessFailuresNameWhatIsLeft: a scenario that leaks a goroutine,
// leaves a message unsettled, blocks a handler forever or settles otherwise
// than expected fails with a message naming what is left, and the story of
// the message.
func TestHarnessFailuresNameWhatIsLeft(t *testing.T) {
	cases := map[string][]string{
		"leaked-goroutine": {"left 1 goroutine(s) behind", "leakyWorker", "chan receive"},
		"blocked-scenario": {"every goroutine of the scenario is blocked forever, the scenario's own included", "[chan receive (durable)] in", "harness_test.go"},
		"unsettled":        {"work still in flight when the scenario ended", "on work waits for attempt 2, due at +1h0m0s"},
		"blocked-handler":  {"Settle gave up", "a handler on work is still running message", "attempt 1, since +0s", "goroutine(s) behind"},
		"wrong-rpc-error": {`the reply to status failed with code "", want "NotFound"`, "received on status attempt 1", "settled on status attempt 1",
			`replied to "amq.rabbitmq.reply-to.`, `with failure "the responder failed`},
		"wrong-attempts": {"settlements on work: got 3 settlements, want 1", "+1m0s settled on work attempt 2: retried (next in 1m0s)",
			"+2m0s settled on work attempt 3: accepted"},
	}
	for name, want := range cases {
		t.Run(name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestHarnessFailingScenario$", "-test.count=1")
			cmd.Env = append(os.Environ(), scenarioEnv+"="+name)
			out, err := cmd.CombinedOutput()
			if err == nil {
				t.Fatalf("the scenario passed:\n%s", out)
			}
			for _, w := range want {
				if !strings.Contains(string(out), w) {
					t.Errorf("the failure does not say %q:\n%s", w, out)
				}
			}
			if strings.Contains(string(out), "panic:") {
				t.Errorf("the failure is a panic, not a readable error:\n%s", out)
			}
		})
	}
}
