#!/usr/bin/env bash
# scripts/test.sh — every check, exactly as CI runs it (.ci/run calls this).
#
# Starts a private RabbitMQ node on loopback (installing Debian's rabbitmq-server
# when it is missing), runs gofmt, go vet, the generator's staleness check on
# the examples and every test with -race — unit tests on memory:// and the
# integration tests against the broker — then stops the broker. With the broker
# started here a test that cannot reach it fails; nothing is skipped.
set -euo pipefail
cd "$(dirname "$0")/.."

port=${ACEMQ_TEST_PORT:-5679}
log=$(mktemp -t acemq-test.XXXXXX)
trap 'scripts/broker.sh stop "$port" >/dev/null 2>&1 || true; rm -f "$log"' EXIT

step() { printf '\n== %s\n' "$*"; }

step "gofmt"
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './bench/*'))
[ -z "$unformatted" ] || { echo "gofmt would change:"; echo "$unformatted"; exit 1; }

step "go build and go vet"
go build ./...
go vet ./...

step "generated examples are up to date"
go run ./cmd/acemq-gen check -o examples/bookstore examples/bookstore/contracts

step "broker"
url=$(scripts/broker.sh start "$port" | tail -n 1)
export ACEMQ_TEST_AMQP_URL="$url" ACEMQ_REQUIRE_BROKER=1
echo "RabbitMQ at $url"

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
passed=$(grep -c -- '--- PASS' "$log" || true)
echo "test.sh: $passed tests passed"
exit "$status"
