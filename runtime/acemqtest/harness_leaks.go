package acemqtest

import (
	"fmt"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
)

// finish ends a scenario inside its bubble: work still in flight fails the
// test, the connection is closed, and the goroutines left behind are
// reported.
func (h *Harness) finish(leaks *leakReport) {
	h.t.Helper()
	synctest.Wait()
	if ws := h.endPending(); len(ws) > 0 {
		h.t.Errorf("acemqtest: work still in flight when the scenario ended at +%s:\n%s", h.Elapsed(), describe(ws))
	}
	h.exportTrace()
	_ = h.conn.Close()
	synctest.Wait()
	if left := goroutinesOf(ownBubble()); len(left) > 0 {
		leaks.set(left)
		h.t.Errorf("acemqtest: the scenario left %d goroutine(s) behind after its connection closed:\n%s",
			len(left), strings.Join(left, "\n"))
	}
}

// endPending is the work the end of a scenario may not leave: all of it, or
// with a horizon set, what is running or due within it.
func (h *Harness) endPending() []work {
	h.mu.Lock()
	horizon := h.horizon
	h.mu.Unlock()
	ws := h.pending()
	if horizon == 0 {
		return ws
	}
	return dueBy(ws, h.Now().Add(horizon))
}

// leakReport carries the goroutines a scenario left behind out of its
// bubble, to the deadlock synctest then reports.
type leakReport struct {
	mu     sync.Mutex
	bubble string   // the scenario's bubble
	left   []string // the goroutines it left, named from inside it
}

// enter notes the bubble of the calling scenario.
func (l *leakReport) enter() {
	bubble, _ := ownBubble()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.bubble = bubble
}

func (l *leakReport) set(left []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.left = left
}

// recoverDeadlock turns synctest's deadlock panic into a test failure
// naming the goroutines blocked (unless the scenario named them already,
// from inside the bubble). Any other panic goes on.
func (l *leakReport) recoverDeadlock(t *testing.T) {
	t.Helper()
	p := recover()
	if p == nil {
		return
	}
	msg := fmt.Sprint(p)
	if !strings.HasPrefix(msg, "deadlock") {
		panic(p)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.left) == 0 { // the scenario itself is blocked: its goroutines were not listed
		t.Errorf("acemqtest: every goroutine of the scenario is blocked forever, the scenario's own included (%s):\n%s",
			msg, strings.Join(goroutinesOf(l.bubble, ""), "\n"))
	}
}

// bubbleHeader matches the first line of a goroutine's trace in a bubble.
var bubbleHeader = regexp.MustCompile(`^goroutine (\d+) \[([^\]]*?),? ?synctest bubble (\d+)\]:`)

// ownBubble returns the caller's bubble and goroutine ids ("" outside one).
func ownBubble() (bubble, self string) {
	m := bubbleHeader.FindStringSubmatch(stack(false))
	if m == nil {
		return "", ""
	}
	return m[3], m[1]
}

// goroutinesOf describes every goroutine of bubble but goroutine self and
// synctest's own: where each is blocked and who started it.
func goroutinesOf(bubble, self string) []string {
	var out []string
	for _, g := range strings.Split(stack(true), "\n\n") {
		m := bubbleHeader.FindStringSubmatch(g)
		if bubble == "" || m == nil || m[3] != bubble || m[1] == self || strings.Contains(g, "testing/synctest.testingSynctestTest(") ||
			strings.Contains(g, "internal/synctest.Run(") {
			continue
		}
		out = append(out, summarise(m[2], g))
	}
	return out
}

// summarise is one goroutine: its state, its innermost frame outside the
// runtime and the standard library's sync and time, and what started it.
func summarise(state, trace string) string {
	lines := strings.Split(trace, "\n")
	frame, created := "", ""
	for i := 1; i+1 < len(lines); i += 2 {
		fn, at := lines[i], strings.TrimSpace(lines[i+1])
		if name, ok := strings.CutPrefix(fn, "created by "); ok {
			created = name + " at " + at
			break
		}
		if frame == "" && !strings.HasPrefix(fn, "runtime.") && !strings.HasPrefix(fn, "sync.") && !strings.HasPrefix(fn, "time.") &&
			!strings.HasPrefix(fn, "internal/") {
			frame = withoutArgs(fn) + " at " + at
		}
	}
	return fmt.Sprintf("\t[%s] in %s, started by %s", strings.TrimSuffix(state, ","), frame, created)
}

// withoutArgs drops the argument list a trace prints after a function.
func withoutArgs(fn string) string {
	depth := 0
	for i := len(fn) - 1; i >= 0; i-- {
		switch fn[i] {
		case ')':
			depth++
		case '(':
			if depth--; depth == 0 {
				return fn[:i]
			}
		}
	}
	return fn
}

// stack is runtime.Stack's text, all goroutines or only the caller's.
func stack(all bool) string {
	buf := make([]byte, 1<<16)
	for {
		n := runtime.Stack(buf, all)
		if n < len(buf) {
			return string(buf[:n])
		}
		buf = make([]byte, 2*len(buf))
	}
}
