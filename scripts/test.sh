#!/usr/bin/env bash
# scripts/test.sh — every check, exactly as CI runs it (.ci/run calls this).
#
# Starts a private RabbitMQ node on loopback (installing Debian's rabbitmq-server
# when it is missing), runs gofmt, go vet, the generator's staleness check on
# the examples, the unit tests once with no broker variables set (as a new user
# runs `go test ./...`: every broker test must skip, none may fail), every test with -race — unit tests on memory:// and the
# integration tests against the broker — then every fuzz target for a few
# seconds (scripts/fuzz.sh), and stops the broker. The hostile-input suite
# (docs/security.md) runs in the -race run and again without -race, where its
# bounds (parked within 1 s, under 64 MB) are exact. A second node
# (ACEMQ_TEST_FAULT_PORT, default 5699, with a TLS listener on the next port
# and a CA generated for this run) is started alongside for the fault tests,
# which stop, block and disconnect it without disturbing the other packages'
# tests. A private PostgreSQL cluster (scripts/postgres.sh, port
# ACEMQ_TEST_POSTGRES_PORT, default 5689) is started beside them for the
# outbox tests, and a three-node RabbitMQ cluster (scripts/broker.sh cluster,
# ports ACEMQ_TEST_CLUSTER_PORTS, default "5711 5712 5713") for the failover
# tests, exported as ACEMQ_TEST_CLUSTER_URL and ACEMQ_TEST_CLUSTER_PORTS. With
# the brokers and the database started here a test that cannot reach one
# fails; nothing is skipped. After the SIGKILL soak, the partition soak runs
# on a three-node cluster in a network namespace (scripts/partition.sh, ports
# PARTITION_PORTS, default "5721 5722 5723"; root only): links cut and nodes
# paused, with an outbox stream on the PostgreSQL cluster's Unix socket
# (docs/cluster.md).
set -euo pipefail
cd "$(dirname "$0")/.."

# The ports taken on 127.0.0.1, and the variables that move them (README.md's
# set-up section lists them; TestReadmeNamesTheTestPortsOfScriptsTestSh checks
# it against these defaults and scripts/broker.sh's offsets):
port=${ACEMQ_TEST_PORT:-5679}              # RabbitMQ node; management API on port + 10000
fault_port=${ACEMQ_TEST_FAULT_PORT:-5699}  # fault node; TLS listener on fault_port + 1
pg_port=${ACEMQ_TEST_POSTGRES_PORT:-5689}  # PostgreSQL
# the three-node cluster of the failover tests (scripts/broker.sh cluster); its
# shared epmd on the first port + 40000
export RABBIT_CLUSTER_PORTS=${ACEMQ_TEST_CLUSTER_PORTS:-5711 5712 5713}
log=$(mktemp -t acemq-test.XXXXXX)
tls_dir=$(mktemp -d -t acemq-tls.XXXXXX)
fault_out=$(mktemp -t acemq-fault.XXXXXX)
pg_out=$(mktemp -t acemq-postgres.XXXXXX)
# ACEMQ_ASYNCAPI_CACHE: where scripts/asyncapi.sh installs @asyncapi/parser
# (default ~/.cache/acemq-asyncapi); the AsyncAPI tests then must run.
cluster_out=$(mktemp -t acemq-cluster.XXXXXX)
partition_out=$(mktemp -t acemq-partition.XXXXXX)
cleanup() {
  scripts/broker.sh stop "$port" >/dev/null 2>&1 &
  scripts/broker.sh stop "$fault_port" >/dev/null 2>&1 &
  scripts/broker.sh cluster stop >/dev/null 2>&1 &
  scripts/partition.sh stop >/dev/null 2>&1 &
  scripts/postgres.sh stop "$pg_port" >/dev/null 2>&1 &
  wait
  rm -rf "$log" "$tls_dir" "$fault_out" "$pg_out" "$cluster_out" "$partition_out"
}
trap cleanup EXIT

step() { printf '\n== %s\n' "$*"; }

step "gofmt"
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './bench/*'))
[ -z "$unformatted" ] || { echo "gofmt would change:"; echo "$unformatted"; exit 1; }

step "go build and go vet"
go build ./...
go vet ./...

step "generated examples are up to date (go generate ./examples/... && git diff --exit-code)"
go generate ./examples/...
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  git diff --exit-code --stat -- examples || { echo "test.sh: go generate changed examples/; commit the regenerated code"; exit 1; }
fi
go run ./cmd/acemq-gen check -o examples/bookstore examples/bookstore/contracts

step "AsyncAPI documents pass @asyncapi/parser (scripts/asyncapi.sh; zero errors, zero warnings)"
asyncapi_modules=$(scripts/asyncapi.sh install)
scripts/asyncapi.sh validate testdata/golden/*/want.asyncapi/*.asyncapi.* $(git ls-files 'examples/*.asyncapi.yaml' 'examples/*.asyncapi.json')

step "the contract catalog in headless Chromium (scripts/catalog.sh: every page and link, no console error, axe-core, topology, search)"
# installs Debian's chromium when missing, and puppeteer-core and axe-core
# (scripts/catalog/package-lock.json) into ACEMQ_CATALOG_CACHE (default ~/.cache/acemq-catalog)
scripts/catalog.sh check

step "go test ./... with no broker variables set (broker tests skip, nothing fails)"
nobroker_log=$(mktemp -t acemq-nobroker.XXXXXX)
if ! env -u ACEMQ_TEST_AMQP_URL -u ACEMQ_TEST_MANAGEMENT_URL -u ACEMQ_REQUIRE_BROKER -u ACEMQ_TEST_FAULT_AMQP_URL -u ACEMQ_TEST_FAULT_PORT \
  -u ACEMQ_TEST_AMQPS_URL -u ACEMQ_TEST_CA -u ACEMQ_URL -u ACEMQ_TEST_CLUSTER_URL -u ACEMQ_TEST_CLUSTER_PORTS \
  -u ACEMQ_TEST_POSTGRES_URL -u ACEMQ_TEST_POSTGRES_PORT -u ACEMQ_REQUIRE_POSTGRES \
  -u ACEMQ_ASYNCAPI_PARSER -u ACEMQ_REQUIRE_ASYNCAPI go test -count=1 ./... >"$nobroker_log" 2>&1; then
  grep -v -E '^(ok|\?) ' "$nobroker_log" | tail -n 200
  echo "test.sh: go test ./... fails without a broker; README.md promises the broker tests skip"
  rm -f "$nobroker_log"; exit 1
fi
rm -f "$nobroker_log"
echo "ok: every package passes with the broker tests skipped"

step "brokers and PostgreSQL (the main node, the fault node, the three-node cluster and the database, started in parallel)"
scripts/postgres.sh start "$pg_port" >"$pg_out" &
pg_pid=$!
scripts/broker.sh install
RABBIT_TLS_DIR="$tls_dir" scripts/broker.sh start "$fault_port" >"$fault_out" &
fault_pid=$!
scripts/broker.sh cluster start >"$cluster_out" &
cluster_pid=$!
url=$(RABBIT_MGMT=1 scripts/broker.sh start "$port" | tail -n 1)
wait "$fault_pid" || { echo "test.sh: the fault node did not start"; exit 1; }
fault_url=$(tail -n 1 "$fault_out")
wait "$cluster_pid" || { cat "$cluster_out"; echo "test.sh: the cluster did not start"; exit 1; }
export ACEMQ_TEST_CLUSTER_URL=$(tail -n 1 "$cluster_out") ACEMQ_TEST_CLUSTER_PORTS="$RABBIT_CLUSTER_PORTS"
wait "$pg_pid" || { echo "test.sh: PostgreSQL did not start"; exit 1; }
pg_url=$(tail -n 1 "$pg_out")
export ACEMQ_TEST_POSTGRES_URL="$pg_url" ACEMQ_TEST_POSTGRES_PORT="$pg_port" ACEMQ_REQUIRE_POSTGRES=1
export ACEMQ_TEST_AMQP_URL="$url" ACEMQ_REQUIRE_BROKER=1
export ACEMQ_ASYNCAPI_PARSER="$asyncapi_modules" ACEMQ_REQUIRE_ASYNCAPI=1
export ACEMQ_TEST_MANAGEMENT_URL="http://guest:guest@127.0.0.1:$((port + 10000))"
export ACEMQ_TEST_FAULT_AMQP_URL="$fault_url" ACEMQ_TEST_FAULT_PORT="$fault_port"
export ACEMQ_TEST_AMQPS_URL=$(scripts/broker.sh tls-url "$fault_port") ACEMQ_TEST_CA="$tls_dir/ca.pem"
echo "RabbitMQ at $url; fault node at $fault_url (TLS $ACEMQ_TEST_AMQPS_URL); cluster at $ACEMQ_TEST_CLUSTER_URL; PostgreSQL at $pg_url"

step "go test -race ./... (memory:// and RabbitMQ)"
status=0
go test -race -count=1 -v -timeout 20m ./... >"$log" 2>&1 || status=$?
grep -E '^(ok|FAIL|---|panic:|\?)' "$log" | grep -v -- '--- PASS' || true
if grep -q -- '--- SKIP' "$log"; then
  echo "test.sh: a test was skipped; with the broker running nothing may be skipped:"
  grep -B2 -A3 -- '--- SKIP' "$log"
  status=1
fi
if [ "$status" -ne 0 ]; then
  echo; echo "== failures (full log follows the summary)"; grep -B 30 -E -- '--- FAIL|^panic:|^FAIL' "$log" | tail -n 300
fi
# the hostile-input suite (docs/security.md) must have run against the broker, not been filtered out
for t in TestHostileBodiesAreParkedWithinBounds TestDeepHeaderTableIsParkedWithoutReconnect \
  TestWideHeaderTableIsParkedWithoutReconnect TestSetAsideNearFrameMaxFitsWithoutReconnect; do
  grep -q -- "--- PASS: $t " "$log" || { echo "test.sh: the hostile-input suite's $t did not pass"; status=1; }
done
passed=$(grep -c -- '--- PASS' "$log" || true)
echo "test.sh: $passed tests passed"
[ "$status" -eq 0 ] || exit "$status"

step "harness scenarios on memory:// and RabbitMQ, same settlement trace (scripts/harness.sh)"
scripts/harness.sh

step "hostile-input suite without -race: every bomb parked within 1 s and 64 MB (docs/security.md)"
go test -count=1 -v -run 'TestHostileBodiesAreParkedWithinBounds$|TestDeepHeaderTableIsParkedWithoutReconnect|TestWideHeaderTableIsParkedWithoutReconnect|TestDeepHeaderArrayIsParkedWithoutReconnect|TestSetAsideNearFrameMaxFitsWithoutReconnect' \
  ./runtime/rabbitmq/ >"$log" 2>&1 || { grep -E -- '--- FAIL|took|within|FAIL' "$log" | head -n 60; echo "test.sh: the hostile-input suite failed"; exit 1; }
if grep -q -- '--- SKIP' "$log"; then echo "test.sh: the hostile-input suite skipped a test"; exit 1; fi
echo "ok: $(grep -c -- '--- PASS' "$log") hostile-input cases passed"

step "scheduled publish under faults: 2,000 messages over 0-90 s (p99 lateness < 1.5 s); the fault node SIGKILLed with 1,000 waiting; the cluster's node holding the ladder SIGKILLed, quorum rungs (0 lost) and classic (stranded)"
# built with the tag schedulefaults: these kill brokers the -race run's tests share, so they run here, alone
sched_log=$(mktemp -t acemq-sched.XXXXXX)
go test -tags schedulefaults -count=1 -v -run 'TestScheduledRandomDelaysAreEachDeliveredOnceNoneEarlyWithLatenessMeasured/rabbitmq$' \
  ./runtime/patterns/ >"$sched_log.load" 2>&1 &
sched_load=$!
sched_status=0
go test -tags schedulefaults -count=1 -v -run 'TestScheduledMessagesSurviveABrokerSIGKILL|TestScheduledMessagesOnQuorumRungs|TestScheduledMessagesOnClassicRungs' \
  ./runtime/patterns/ >"$sched_log" 2>&1 || sched_status=1
wait "$sched_load" || sched_status=1
grep -hE -- '^(---|ok|FAIL)|scheduled, |classic rungs:|lateness' "$sched_log.load" "$sched_log" | grep -v '^=== ' || true
if grep -q -- '--- SKIP' "$sched_log.load" "$sched_log"; then echo "test.sh: a scheduler fault test skipped"; sched_status=1; fi
[ "$sched_status" -eq 0 ] || grep -hv '^20[0-9][0-9]/' "$sched_log.load" "$sched_log" | tail -n 60
rm -f "$sched_log" "$sched_log.load"
[ "$sched_status" -eq 0 ] || { echo "test.sh: the scheduler's fault tests failed"; exit 1; }

# the partition cluster boots (some 75 s) while the SIGKILL soak runs
scripts/partition.sh start >"$partition_out" 2>&1 &
partition_pid=$!

step "soak: ${SOAK_DURATION:-60s} on the cluster while nodes are SIGKILLed (bench/soak)"
(cd bench && go run ./soak -url "$ACEMQ_TEST_CLUSTER_URL" -ports "$ACEMQ_TEST_CLUSTER_PORTS" \
  -duration "${SOAK_DURATION:-60s}") || { echo "test.sh: the soak failed: a confirmed message was lost or handled twice"; exit 1; }

step "partitions: ${PARTITION_SOAK_DURATION:-200s} of the soak while links are cut and nodes paused (scripts/partition.sh, bench/soak -faults partition)"
# the SIGKILL cluster's work is done: its CPU goes to the partition cluster
scripts/broker.sh cluster stop >/dev/null 2>&1 || true
wait "$partition_pid" || { cat "$partition_out"; echo "test.sh: the partition cluster did not start"; exit 1; }
(cd bench && ../scripts/partition.sh exec go run ./soak -faults partition -duration "${PARTITION_SOAK_DURATION:-200s}" \
  -every 5s -cut "${PARTITION_CUT:-10s}" -rate 300 -drain 5m \
  -postgres "host=${TMPDIR:-/tmp}/postgres-$pg_port/run port=$pg_port user=postgres dbname=postgres sslmode=disable") \
  || { scripts/partition.sh stop; echo "test.sh: the partition soak failed: a confirmed message was lost or handled twice"; exit 1; }
scripts/partition.sh stop

step "fuzz targets, a few seconds each (scripts/fuzz.sh)"
FUZZTIME=${FUZZTIME:-3s} scripts/fuzz.sh
