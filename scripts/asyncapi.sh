#!/usr/bin/env bash
# scripts/asyncapi.sh — the AsyncAPI validator of acemq-gen's documents.
#
#   scripts/asyncapi.sh install          install @asyncapi/parser and the Avro
#                                        schema parser (scripts/asyncapi/package-lock.json)
#                                        into ACEMQ_ASYNCAPI_CACHE (default
#                                        ~/.cache/acemq-asyncapi) and print its
#                                        node_modules directory
#   scripts/asyncapi.sh validate FILE... parse each document: exit 1 on any
#                                        error or warning, or a FILE that is
#                                        missing (one line each); a relative
#                                        FILE is read from the caller's directory
#
# Node.js and npm come from Debian's nodejs and npm packages when missing,
# installed under the lock the other installers (broker.sh, postgres.sh) take.
set -euo pipefail
caller=$PWD # FILE arguments are relative to it, not to the repository
cd "$(dirname "$0")/.."
root=$PWD
here=scripts/asyncapi
cache=${ACEMQ_ASYNCAPI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/acemq-asyncapi}
case "$cache" in /*) ;; *) cache="$caller/$cache" ;; esac

die() { echo "asyncapi.sh: $*" >&2; exit 1; }

ensure_node() {
  command -v node >/dev/null && command -v npm >/dev/null && return 0
  exec 9>"${TMPDIR:-/tmp}/acemq-broker-install.lock"
  flock 9
  if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    command -v apt-get >/dev/null || die "node and npm missing and no apt-get: install Node.js yourself"
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo -E"
    echo "asyncapi.sh: installing nodejs and npm with apt-get" >&2
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update >&2 || die "apt-get update failed"
    $sudo apt-get -o DPkg::Lock::Timeout=300 install -y --no-install-recommends nodejs npm >&2 || die "apt-get install nodejs npm failed"
  fi
  flock -u 9
}

# check_files FILE...: each names a readable regular file, from the caller's
# directory; one line for each that does not, then exit 1.
check_files() {
  local f missing=0
  for f in "$@"; do
    (cd "$caller" && [ -f "$f" ] && [ -r "$f" ]) && continue
    echo "asyncapi.sh: $f: no such readable file (relative to $caller)" >&2
    missing=1
  done
  [ "$missing" -eq 0 ] || exit 1
}

install() {
  ensure_node
  mkdir -p "$cache"
  # reinstall only when the pinned versions change
  if ! cmp -s "$here/package-lock.json" "$cache/package-lock.json" || [ ! -d "$cache/node_modules/@asyncapi/parser" ]; then
    cp "$here/package.json" "$here/package-lock.json" "$cache/"
    npm ci --prefix "$cache" --no-audit --no-fund --loglevel=error >&2 || die "npm ci of $here/package-lock.json failed"
  fi
  echo "$cache/node_modules"
}

case "${1:-}" in
  install) install ;;
  validate)
    shift
    [ $# -gt 0 ] || die "usage: scripts/asyncapi.sh validate FILE..."
    check_files "$@"
    modules=$(install)
    cd "$caller" # the documents are named from here, and printed as given
    ACEMQ_ASYNCAPI_PARSER="$modules" node "$root/$here/validate.mjs" "$@"
    ;;
  *) die "usage: scripts/asyncapi.sh install | validate FILE..." ;;
esac
