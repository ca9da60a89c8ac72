#!/usr/bin/env bash
# scripts/harness.sh — run the bookstore's harness tests both ways and compare.
#
# The tests in examples/bookstore/harness_test.go run on acemqtest.Run: first
# in a testing/synctest bubble on a private memory:// broker (virtual time:
# waits of hours take microseconds), then in real time against the RabbitMQ
# broker at ACEMQ_TEST_AMQP_URL (the one scripts/test.sh starts and exports),
# their durations scaled by Harness.D (ACEMQ_HARNESS_SCALE of real time per
# virtual hour, default 1s: about 35 s in all), each scenario in a virtual
# host of its own when ACEMQ_TEST_MANAGEMENT_URL gives the broker's
# management API (scripts/test.sh exports it). Each run writes every
# scenario's settlement trace (queue, message, attempt, action, reason, in
# order) to a directory of its own; the script fails unless both runs pass
# and the traces are the same, file for file.
#
#   scripts/harness.sh                  both ways (ACEMQ_TEST_AMQP_URL required)
#   HARNESS_RUN=Ladder scripts/harness.sh   only the tests matching TestHarness.*Ladder
set -euo pipefail
cd "$(dirname "$0")/.."

: "${ACEMQ_TEST_AMQP_URL:?set ACEMQ_TEST_AMQP_URL (scripts/broker.sh start prints one, scripts/test.sh exports it)}"
run="^TestHarness.*${HARNESS_RUN:-}"
traces=$(mktemp -d -t acemq-harness.XXXXXX)
trap 'rm -rf "$traces"' EXIT
mkdir -p "$traces/memory" "$traces/rabbitmq"

# harness WAY [VAR=VALUE...]: one run of the tests; the summary lines, or on
# a failure everything (the failing scenario's stories).
harness() {
  local way=$1 out="$traces/$1.out"
  shift
  if ! env ACEMQ_HARNESS_TRACE_DIR="$traces/$way" "$@" go test -count=1 -race -run "$run" -v ./examples/bookstore/ >"$out" 2>&1; then
    cat "$out"; echo "harness.sh: the harness tests failed on $way"; exit 1
  fi
  grep -E '^(--- |ok)' "$out"
}

echo "harness.sh: the bookstore's harness tests in virtual time (memory://)"
harness memory
echo "harness.sh: the same scenarios in real time on RabbitMQ"
harness rabbitmq ACEMQ_HARNESS_AMQP_URL="$ACEMQ_TEST_AMQP_URL" ACEMQ_HARNESS_MANAGEMENT_URL="${ACEMQ_TEST_MANAGEMENT_URL:-}"

n=$(find "$traces/memory" -name '*.trace' | wc -l)
if [ "$n" -eq 0 ]; then
  echo "harness.sh: no settlement trace was written"; exit 1
fi
if ! diff -r -x "*.out" "$traces/memory" "$traces/rabbitmq"; then
  echo "harness.sh: the settlement traces differ between memory:// and RabbitMQ (above: < memory, > rabbitmq)"; exit 1
fi
echo "harness.sh: $n scenarios reached the same settlement trace on memory:// and on RabbitMQ"
