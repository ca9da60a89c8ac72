#!/usr/bin/env bash
# scripts/catalog.sh — the browser check of acemq-gen's contract catalog.
#
#   scripts/catalog.sh install        install puppeteer-core and axe-core
#                                     (scripts/catalog/package-lock.json) into
#                                     ACEMQ_CATALOG_CACHE (default
#                                     ~/.cache/acemq-catalog) and Debian's
#                                     chromium when missing; print the
#                                     node_modules directory
#   scripts/catalog.sh check [SHOTS]  build the catalog of the bookstore
#                                     example (with its usage graph fixture)
#                                     and of every golden whose contracts
#                                     build, and check them in headless
#                                     Chromium (scripts/catalog/check.mjs);
#                                     screenshots go to SHOTS (default a
#                                     temporary directory, printed); exit 1
#                                     on any problem
#
# Node.js and npm come from scripts/asyncapi.sh's installer.
set -euo pipefail
cd "$(dirname "$0")/.."
here=scripts/catalog
cache=${ACEMQ_CATALOG_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/acemq-catalog}

die() { echo "catalog.sh: $*" >&2; exit 1; }

ensure_chromium() {
  command -v chromium >/dev/null && return 0
  exec 9>"${TMPDIR:-/tmp}/acemq-broker-install.lock"
  flock 9
  if ! command -v chromium >/dev/null; then
    command -v apt-get >/dev/null || die "chromium missing and no apt-get: install Chromium and set CHROMIUM"
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo -E"
    echo "catalog.sh: installing chromium with apt-get" >&2
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update >&2 || die "apt-get update failed"
    $sudo apt-get -o DPkg::Lock::Timeout=300 install -y --no-install-recommends chromium fonts-dejavu-core >&2 || die "apt-get install chromium failed"
  fi
  flock -u 9
}

install() {
  scripts/asyncapi.sh install >/dev/null # node and npm
  [ -n "${CHROMIUM:-}" ] || ensure_chromium
  mkdir -p "$cache"
  # reinstall only when the pinned versions change
  if ! cmp -s "$here/package-lock.json" "$cache/package-lock.json" || [ ! -d "$cache/node_modules/puppeteer-core" ]; then
    cp "$here/package.json" "$here/package-lock.json" "$cache/"
    PUPPETEER_SKIP_DOWNLOAD=1 npm ci --prefix "$cache" --no-audit --no-fund --loglevel=error >&2 || die "npm ci of $here/package-lock.json failed"
  fi
  echo "$cache/node_modules"
}

check() {
  local modules shots bin sites=()
  modules=$(install)
  work=$(mktemp -d -t acemq-catalog.XXXXXX)
  trap 'rm -rf "$work"' EXIT
  shots=${1:-$work/shots}
  bin="$work/acemq-gen"
  go build -o "$bin" ./cmd/acemq-gen
  "$bin" catalog -o "$work/bookstore" --usage cmd/acemq-gen/testdata/catalog/bookstore-usage.json examples/bookstore/contracts >/dev/null
  sites+=("bookstore=$work/bookstore")
  local g name
  for g in testdata/golden/*/; do
    name=$(basename "$g")
    case "$name" in diag_*) continue ;; esac # contracts with errors build no catalog
    "$bin" catalog -o "$work/$name" "$g" >/dev/null || die "acemq-gen catalog $g failed"
    sites+=("$name=$work/$name")
  done
  echo "catalog.sh: screenshots in $shots" >&2
  ACEMQ_CATALOG_MODULES="$modules" ACEMQ_CATALOG_THOROUGH=bookstore node "$here/check.mjs" "$shots" "${sites[@]}"
}

case "${1:-}" in
  install) install ;;
  check) shift; check "$@" ;;
  *) die "usage: scripts/catalog.sh install | check [SHOTS]" ;;
esac
