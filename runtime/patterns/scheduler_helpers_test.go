package patterns

import (
	"context"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
	"github.com/acemq/acemq-gen/runtime/acemqtest"
)

// scheduleVhost is the broker vhost the scheduler tests use, so that the
// family's fixed ladder names do not meet other tests' traffic; the quorum
// ladder gets its own, a vhost holding one ladder type only.
const (
	scheduleVhost       = "acemq-schedule-test"
	scheduleQuorumVhost = "acemq-schedule-quorum-test"
)

// onScheduleTransports runs fn on a fresh memory:// broker and, with
// ACEMQ_TEST_AMQP_URL set, on the broker in vhost (made through the
// management API when missing).
func onScheduleTransports(t *testing.T, vhost string, fn func(t *testing.T, url string)) {
	t.Run("memory", func(t *testing.T) { fn(t, "memory://schedule-"+acemq.NewUUID()) })
	t.Run("rabbitmq", func(t *testing.T) { fn(t, vhostURL(t, vhost)) })
}

// vhostURL returns the test broker's URL in vhost, creating the vhost and
// guest's permissions on it.
func vhostURL(t *testing.T, vhost string) string {
	t.Helper()
	amqpURL, mgmt := brokerURL(t), acemqtest.ManagementURL(t)
	m, err := url.Parse(mgmt)
	if err != nil {
		t.Fatalf("management URL: %v", err)
	}
	user := m.User.Username()
	mgmtPut(t, mgmt, "/api/vhosts/"+vhost, "{}")
	mgmtPut(t, mgmt, "/api/permissions/"+vhost+"/"+user, `{"configure":".*","write":".*","read":".*"}`)
	return strings.TrimSuffix(amqpURL, "/") + "/" + vhost
}

func mgmtPut(t *testing.T, base, path, body string) {
	t.Helper()
	m, _ := url.Parse(base)
	pass, _ := m.User.Password()
	req, err := http.NewRequest(http.MethodPut, m.Scheme+"://"+m.Host+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.SetBasicAuth(m.User.Username(), pass)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("management PUT %s: %v", path, err)
	}
	_ = res.Body.Close()
	if res.StatusCode >= 300 {
		t.Fatalf("management PUT %s: %s", path, res.Status)
	}
}

// schedConn connects to url, closed at cleanup.
func schedConn(t *testing.T, url string, opts ...acemq.ConnOption) *acemq.Conn {
	t.Helper()
	c, err := acemq.Connect(context.Background(), url, opts...)
	if err != nil {
		t.Fatalf("connect %s: %v", url, err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// startScheduler runs a scheduler on conn, closed at cleanup.
func startScheduler(t *testing.T, conn *acemq.Conn) *Scheduler {
	t.Helper()
	s, err := NewScheduler(context.Background(), conn)
	if err != nil {
		t.Fatalf("NewScheduler: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// arrival is one message delivered to a destination queue.
type arrival struct {
	msg acemq.Message[reminder]
	at  time.Time
}

// reminder is what the tests schedule.
type reminder struct {
	N    int    `json:"n"`
	Text string `json:"text"`
}

// arrivals collects what reaches a destination queue.
type arrivals struct {
	mu   sync.Mutex
	list []arrival
}

func (a *arrivals) all() []arrival {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]arrival(nil), a.list...)
}

// destination declares a queue unique to the test (deleted at cleanup on
// the broker) and collects what reaches it.
func destination(t *testing.T, conn *acemq.Conn, url string) (string, *arrivals) {
	t.Helper()
	q := "schedule-test-" + acemq.NewUUID()[:8]
	if strings.HasPrefix(url, "amqp") {
		t.Cleanup(func() { deleteQueues(t, url, q, q+".dlq", q+".parked") })
	}
	if err := conn.DeclareQueue(context.Background(), q); err != nil {
		t.Fatalf("declare %s: %v", q, err)
	}
	return q, recordArrivals(t, conn, q)
}

// recordArrivals consumes q on conn until cleanup, noting each message and
// when it came.
func recordArrivals(t *testing.T, conn *acemq.Conn, q string) *arrivals {
	t.Helper()
	got := &arrivals{}
	k, err := acemq.Consume(context.Background(), conn, q, func(_ context.Context, m acemq.Message[reminder]) acemq.Ack {
		got.mu.Lock()
		defer got.mu.Unlock()
		got.list = append(got.list, arrival{msg: m, at: time.Now()})
		return acemq.Accept()
	}, acemq.Concurrency(8))
	if err != nil {
		t.Fatalf("consume %s: %v", q, err)
	}
	t.Cleanup(func() { _ = k.Close() })
	return got
}

// setAsideReason waits until the message with id is in
// acemq.schedule.due.dlq and returns its reason.
func setAsideReason(t *testing.T, conn *acemq.Conn, id string) string {
	t.Helper()
	var reason string
	waitFor(t, 10*time.Second, "the message is in "+semconv.ScheduleDeadLetterQueue, func() bool {
		d, ok, err := conn.Pull(context.Background(), semconv.ScheduleDeadLetterQueue)
		if err != nil || !ok {
			return false
		}
		_ = d.Ack()
		if d.Headers[semconv.HeaderID] == id {
			reason, _ = d.Headers[semconv.HeaderError].(string)
			return true
		}
		return false
	})
	return reason
}

// waitFor waits up to d until cond holds, failing with what.
func waitFor(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting until %s", d, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// scheduleMany schedules n reminders to q, each due between min and
// min+spread from now, and returns their due times by id.
func scheduleMany(t *testing.T, conn *acemq.Conn, q string, n int, min, spread time.Duration) map[string]time.Time {
	t.Helper()
	pub := acemq.NewPublisher[reminder](conn, "", q)
	due := make(map[string]time.Time, n)
	for i := range n {
		s, err := pub.SendAfter(context.Background(), min+rand.N(spread), reminder{N: i})
		if err != nil {
			t.Fatalf("SendAfter %d: %v", i, err)
		}
		due[s.ID()] = s.DueAt()
	}
	return due
}

// uniqueArrivals counts each message id once.
func uniqueArrivals(list []arrival) map[string]int {
	seen := map[string]int{}
	for _, a := range list {
		seen[a.msg.Envelope.ID]++
	}
	return seen
}

// reportArrivals fails for a message missing, unknown or early, and logs the
// duplicates a crash left (absorbed downstream by WithIdempotency).
func reportArrivals(t *testing.T, list []arrival, due map[string]time.Time) {
	t.Helper()
	seen, dups := uniqueArrivals(list), 0
	for _, a := range list {
		d, ok := due[a.msg.Envelope.ID]
		if !ok {
			t.Errorf("message %s arrived but was not scheduled", a.msg.Envelope.ID)
		} else if a.at.Before(d) {
			t.Errorf("message %s arrived %s early", a.msg.Envelope.ID, d.Sub(a.at))
		}
	}
	for id := range due {
		if seen[id] == 0 {
			t.Errorf("message %s was lost", id)
		}
		dups += max(seen[id]-1, 0)
	}
	t.Logf("%d scheduled, %d arrived, %d duplicates", len(due), len(seen), dups)
}
