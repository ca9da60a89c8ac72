package rabbitmq

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

// listQueueArgs returns rabbitmqctl list_queues name arguments, by queue.
func listQueueArgs(t *testing.T, port string) map[string]string {
	t.Helper()
	out := rabbitmqctl(t, port, "list_queues", "-q", "--no-table-headers", "name", "arguments")
	byName := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if name, args, ok := strings.Cut(line, "\t"); ok {
			byName[name] = args
		}
	}
	return byName
}

// argSet renders rabbitmqctl's argument list in sorted order (the broker
// prints them in no fixed order).
func argSet(list string) string {
	inner := strings.TrimSuffix(strings.TrimPrefix(list, "[{"), "}]")
	if list == "[]" || inner == "" {
		return list
	}
	entries := strings.Split(inner, "},{")
	slices.Sort(entries)
	return "{" + strings.Join(entries, "} {") + "}"
}

func TestTheFamilysQueueArgumentsAreWhatRabbitmqctlPrints(t *testing.T) {
	url, port := faultNode(t)
	c := newCleanerAt(t, url)
	ctx := ctxT(t)
	conn, err := acemq.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	q := c.queue(unique("args"))
	policy := acemq.ExponentialRetry(4, 30*time.Second, 2*time.Minute)
	topo := acemq.NewTopology().Queue(q).DeadLetters(q).Retries(q, policy)
	for _, name := range []string{acemq.DeadLetterQueue(q), acemq.ParkedQueue(q), q + ".retry.30s", q + ".retry.1m", q + ".retry.2m"} {
		c.queue(name)
	}
	if err := topo.Apply(ctx, conn); err != nil {
		t.Fatal(err)
	}
	got := listQueueArgs(t, port)
	want := map[string]string{
		q:                        `[{"x-dead-letter-exchange","acemq.dlx"},{"x-dead-letter-routing-key","` + q + `.dlq"},{"x-queue-type","quorum"}]`,
		acemq.DeadLetterQueue(q): `[]`,
		acemq.ParkedQueue(q):     `[]`,
		q + ".retry.30s":         `[{"x-dead-letter-exchange","acemq.retry"},{"x-dead-letter-routing-key","` + q + `"},{"x-message-ttl",30000}]`,
		q + ".retry.1m":          `[{"x-dead-letter-exchange","acemq.retry"},{"x-dead-letter-routing-key","` + q + `"},{"x-message-ttl",60000}]`,
		q + ".retry.2m":          `[{"x-dead-letter-exchange","acemq.retry"},{"x-dead-letter-routing-key","` + q + `"},{"x-message-ttl",120000}]`,
	}
	for name, args := range want {
		if argSet(got[name]) != argSet(args) {
			t.Errorf("rabbitmqctl list_queues: %s has %s, want %s", name, got[name], args)
		}
	}
}
