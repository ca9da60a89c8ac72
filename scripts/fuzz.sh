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

ran=() failed=()
while read -r dir name; do
  [[ -z "$filter" || "$dir" == *"$filter"* ]] || continue
  printf '== %s ./%s (%s)\n' "$name" "$dir" "$fuzztime"
  if go test -run='^$' -fuzz="^${name}\$" -fuzztime="$fuzztime" "./$dir" 2>&1 | tail -n 25; then
    ran+=("ok    $name ./$dir")
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
