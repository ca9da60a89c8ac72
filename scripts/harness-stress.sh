#!/usr/bin/env bash
# scripts/harness-stress.sh — the harness's "never flaky" check.
#
# Builds the bookstore's tests with -race and runs its harness tests
# (examples/bookstore/harness_test.go, TestHarness*) ITERATIONS times in a row
# (default 1000) with GOMAXPROCS=1, while as many busy loops as there are
# cores keep every core busy. It fails unless every run passes and prints
# the wall time, the pass count and the slowest single test (each must take
# under 100 ms of real time; SLOWEST_MS, default 100, is the bound).
#
#   scripts/harness-stress.sh            1000 runs of every harness test
#   ITERATIONS=20 scripts/harness-stress.sh
set -euo pipefail
cd "$(dirname "$0")/.."

iterations=${ITERATIONS:-1000}
bound_ms=${SLOWEST_MS:-100}
work=$(mktemp -d -t acemq-stress.XXXXXX)
burners=()
cleanup() {
  for pid in "${burners[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

go test -race -c -o "$work/bookstore.test" ./examples/bookstore/
for _ in $(seq "$(nproc)"); do
  (while :; do :; done) &
  burners+=($!)
done

start=$(date +%s.%N)
status=0
(cd examples/bookstore && GOMAXPROCS=1 "$work/bookstore.test" -test.run '^TestHarness' -test.count="$iterations" -test.v) \
  >"$work/out" 2>&1 || status=$?
elapsed=$(echo "$(date +%s.%N) - $start" | bc)

passed=$(grep -c -- '^--- PASS: TestHarness' "$work/out" || true)
failed=$(grep -c -- '^--- FAIL: TestHarness' "$work/out" || true)
slowest=$(grep -E -- '^--- PASS: TestHarness' "$work/out" | sed -E 's/.*\(([0-9.]+)s\)$/\1 &/' | sort -n | tail -1)
tests=$(grep -c '^func TestHarness' examples/bookstore/harness_test.go)
printf 'harness-stress.sh: %d runs of %d tests under -race, GOMAXPROCS=1, %d cores kept busy: %s s\n' \
  "$iterations" "$tests" "${#burners[@]}" "$elapsed"
echo "harness-stress.sh: $passed passed, $failed failed; slowest: ${slowest#* }"
if [ "$status" -ne 0 ] || [ "$failed" -ne 0 ] || [ "$passed" -ne $((iterations * tests)) ]; then
  grep -B2 -A30 -- '--- FAIL' "$work/out" | head -100
  echo "harness-stress.sh: FAILED"; exit 1
fi
slowest_ms=$(echo "${slowest%% *} * 1000 / 1" | bc)
if [ "$slowest_ms" -ge "$bound_ms" ]; then
  echo "harness-stress.sh: a test took ${slowest_ms} ms, over the ${bound_ms} ms bound"; exit 1
fi
echo "harness-stress.sh: every run passed, each under ${bound_ms} ms"
