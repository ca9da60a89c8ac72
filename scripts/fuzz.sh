#!/usr/bin/env bash
# scripts/fuzz.sh — run every native fuzz target in the module for a few seconds.
#
# Finds each `func FuzzX(f *testing.F)` in the module's *_test.go files (bench/
# is its own module and is left out) and runs it alone:
#   go test -run='^$' -fuzz='^FuzzX$' -fuzztime=$FUZZTIME ./pkg
# then lists what it ran. Any finding — a panic, a hang, a failed assertion —
# fails the script, and Go has saved the input under pkg/testdata/fuzz/FuzzX/
# so `go test ./pkg` replays it until it is fixed.
#
#   scripts/fuzz.sh                     every target, FUZZTIME (default 3s) each
#   FUZZTIME=30s scripts/fuzz.sh avro   only packages whose path contains "avro"
set -euo pipefail
cd "$(dirname "$0")/.."

fuzztime=${FUZZTIME:-3s}
filter=${1:-}

# "dir name" for every fuzz target, sorted.
targets() {
  git ls-files '*_test.go' 2>/dev/null | grep -v '^bench/' |
    xargs grep -H -E '^func Fuzz[A-Za-z0-9_]*\(f \*testing\.F\)' |
    sed -E 's#^(.*)/[^/]*_test\.go:func (Fuzz[A-Za-z0-9_]*)\(.*#\1 \2#' | sort
}

# fuzz DIR NAME: one run of the target; its output is kept in $out.
out=$(mktemp -t acemq-fuzz.XXXXXX)
trap 'rm -f "$out"' EXIT
fuzz() {
  go test -run='^$' -fuzz="^${2}\$" -fuzztime="$fuzztime" "./$1" >"$out" 2>&1
  local status=$?
  tail -n 25 "$out"
  return "$status"
}

# corpus DIR NAME: how many inputs the target's testdata corpus holds.
corpus() { { find "$1/testdata/fuzz/$2" -type f 2>/dev/null || true; } | wc -l; }

# Go 1.26's fuzzing coordinator can fail a target with a bare "context
# deadline exceeded" when -fuzztime ends, writing no failing input
# (go.dev/issue/75804, fixed in Go 1.27). Such a run is tried once more; a
# run that writes a failing input always fails.
ran=() failed=()
while read -r dir name; do
  [[ -z "$filter" || "$dir" == *"$filter"* ]] || continue
  printf '== %s ./%s (%s)\n' "$name" "$dir" "$fuzztime"
  before=$(corpus "$dir" "$name")
  if fuzz "$dir" "$name"; then
    ran+=("ok    $name ./$dir")
  elif [ "$(corpus "$dir" "$name")" -eq "$before" ] && grep -q 'context deadline exceeded' "$out" &&
    echo "fuzz.sh: $name stopped with Go's fuzztime deadline race and no failing input (go.dev/issue/75804); once more" &&
    fuzz "$dir" "$name"; then
    ran+=("ok    $name ./$dir (second run)")
  else
    ran+=("FAIL  $name ./$dir")
    failed+=("$name")
  fi
done < <(targets)

echo
if [ "${#ran[@]}" -eq 0 ]; then
  echo "fuzz.sh: no fuzz target matched '${filter}'"; exit 1
fi
echo "fuzz.sh: ran ${#ran[@]} targets for $fuzztime each:"
printf '  %s\n' "${ran[@]}"
if [ "${#failed[@]}" -gt 0 ]; then
  echo "fuzz.sh: ${#failed[@]} target(s) failed: ${failed[*]} (a failing input is saved under the package's testdata/fuzz/)"; exit 1
fi
