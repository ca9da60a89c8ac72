#!/usr/bin/env bash
# postgres.sh — run a private, throw-away PostgreSQL cluster (Debian's
# postgresql package) for acemq-gen's outbox tests, without systemd or Docker,
# bound to loopback only. Installs postgresql with apt-get when no server
# binaries are found under /usr/lib/postgresql (sudo only when not root).
#
# Usage:
#   scripts/postgres.sh start   [PORT]  initdb a cluster in its own data directory,
#                                       start it, wait until it accepts connections,
#                                       print its connection URL on stdout (last line)
#   scripts/postgres.sh stop    [PORT]  stop that cluster by pid, remove its state
#   scripts/postgres.sh restart [PORT]  stop the server (fast shutdown) and start it
#                                       again on the same data; print the URL
#   scripts/postgres.sh install         install postgresql with apt when missing
#   scripts/postgres.sh status  [PORT]  exit 0 if the cluster is running
#   scripts/postgres.sh url     [PORT]  print the connection URL
#   scripts/postgres.sh pid     [PORT]  print the postmaster's pid
#
# Typical use:
#   export ACEMQ_TEST_POSTGRES_URL=$(scripts/postgres.sh start | tail -n1)
#   ACEMQ_REQUIRE_POSTGRES=1 go test -race ./runtime/outbox/
#   scripts/postgres.sh stop
#
# PORT defaults to $PG_PORT, else 5689. Other knobs (environment):
#   PG_STATE_DIR         where the cluster lives (default ${TMPDIR:-/tmp}/postgres-PORT)
#   PG_BIN_DIR           the server binaries (default: the newest /usr/lib/postgresql/*/bin)
#   PG_START_TIMEOUT     seconds to wait for start (default 60)
#   PG_KEEP_STATE=1      keep the state dir (data, log) after stop
#
# When run as root the server runs as the `postgres` user (the package creates
# it), which owns the data directory; otherwise it runs as the caller. The
# cluster trusts every local connection (loopback only), user postgres,
# database postgres. Only the pid this script recorded is ever signalled.
set -euo pipefail

die() { echo "postgres.sh: $*" >&2; exit 1; }
log() { echo "postgres.sh: $*" >&2; }

cmd=${1:-}
[ -n "$cmd" ] || die "usage: postgres.sh start|stop|restart|install|status|url|pid [PORT]"
shift
PORT=${PG_PORT:-5689}
if [ $# -gt 0 ]; then PORT=$1; shift; fi
case "$PORT" in ''|*[!0-9]*) die "bad port '$PORT'";; esac

STATE=${PG_STATE_DIR:-${TMPDIR:-/tmp}/postgres-$PORT}
DATA="$STATE/data"
SOCK="$STATE/run"
PIDFILE="$STATE/postgres.pid"
URL="postgres://postgres@127.0.0.1:${PORT}/postgres?sslmode=disable"

# pg_bin: the directory of the server binaries, "" when none is installed.
pg_bin() {
  if [ -n "${PG_BIN_DIR:-}" ]; then echo "$PG_BIN_DIR"; return; fi
  local d
  d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1 || true)
  [ -n "$d" ] && [ -x "$d/postgres" ] && echo "$d" || true
}

# ensure_installed: install Debian's postgresql when it is missing. The lock is
# the one scripts/broker.sh takes, so two installs never run apt at once.
ensure_installed() {
  [ -n "$(pg_bin)" ] && return 0
  exec 9>"${TMPDIR:-/tmp}/acemq-broker-install.lock"
  flock 9
  [ -n "$(pg_bin)" ] && { flock -u 9; return 0; }
  [ -n "${PG_BIN_DIR:-}" ] && die "$PG_BIN_DIR/postgres missing (PG_BIN_DIR is set; not installing)"
  command -v apt-get >/dev/null || die "no PostgreSQL server and no apt-get: install PostgreSQL yourself"
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || die "postgresql missing; run as root or install sudo"
    sudo="sudo -E"
  fi
  log "installing postgresql with apt-get"
  export DEBIAN_FRONTEND=noninteractive
  local apt=(apt-get -o DPkg::Lock::Timeout=300 install -y --no-install-recommends postgresql)
  if ! $sudo "${apt[@]}" >&2; then
    log "apt-get install failed; running apt-get update and trying again"
    $sudo apt-get update >&2 || die "apt-get update failed"
    $sudo "${apt[@]}" >&2 || die "apt-get install postgresql failed"
  fi
  [ -n "$(pg_bin)" ] || die "no /usr/lib/postgresql/*/bin/postgres after installing postgresql"
  flock -u 9
}

# as_owner CMD...: run CMD as the postgres user when root, else as the caller.
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then
    id postgres >/dev/null 2>&1 || die "no postgres user (the postgresql package creates it)"
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

# alive: the recorded pid runs a postgres whose data directory is ours.
alive() {
  local pid
  [ -s "$PIDFILE" ] || return 1
  pid=$(cat "$PIDFILE" 2>/dev/null) || return 1
  case "$pid" in ''|*[!0-9]*) return 1;; esac
  [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = postgres ] || return 1
  tr '\0' '\n' <"/proc/$pid/cmdline" 2>/dev/null | grep -qx -- "$DATA" || return 1
}

# ready: the server accepts connections on the loopback port.
ready() { "$(pg_bin)/pg_isready" -q -h 127.0.0.1 -p "$PORT" -U postgres -d postgres >/dev/null 2>&1; }

port_open() { timeout 2 bash -c "exec 3<>/dev/tcp/127.0.0.1/$1" 2>/dev/null; }

# stop_server: fast shutdown (SIGINT) by pid, SIGKILL after 20 s.
stop_server() {
  alive || return 0
  local pid i=0
  pid=$(cat "$PIDFILE")
  kill -INT "$pid" 2>/dev/null || true
  while alive; do
    if [ "$i" -eq 200 ]; then log "postgres (pid $pid) ignored SIGINT, sending SIGKILL"; kill -KILL "$pid" 2>/dev/null || true; fi
    [ "$i" -ge 250 ] && break
    sleep 0.1; i=$((i + 1))
  done
}

do_stop() {
  if [ ! -d "$STATE" ]; then log "no cluster state at $STATE (not running)"; return 0; fi
  stop_server
  if [ "${PG_KEEP_STATE:-}" = 1 ]; then log "stopped the cluster on port $PORT; state kept in $STATE"
  else rm -rf "$STATE"; log "stopped the cluster on port $PORT"; fi
}

# init_cluster: a fresh data directory owned by the server's user.
init_cluster() {
  rm -rf "$STATE"; mkdir -p "$DATA" "$SOCK"; chmod 700 "$DATA"
  [ "$(id -u)" -eq 0 ] && chown -R postgres: "$STATE"
  as_owner "$(pg_bin)/initdb" -D "$DATA" -U postgres --auth=trust -E UTF8 --no-sync >"$STATE/initdb.log" 2>&1 \
    || { cat "$STATE/initdb.log" >&2; die "initdb failed"; }
  cat >>"$DATA/postgresql.conf" <<EOF
listen_addresses = '127.0.0.1'
port = $PORT
unix_socket_directories = '$SOCK'
max_connections = 200
# a throw-away test cluster: a crash of the machine may lose it, a crash of the server may not
fsync = off
full_page_writes = off
EOF
}

# run_server: start the postmaster in the background, in a session of its
# own (as the postgres user when root: setpriv execs, so the recorded pid is
# the postmaster's), and wait until it accepts connections.
run_server() {
  local bin; bin=$(pg_bin)
  local as=()
  [ "$(id -u)" -eq 0 ] && as=(setpriv --reuid=postgres --regid=postgres --init-groups)
  PGBIN="$bin" setsid bash -c 'echo $$ >"$1"; shift; exec "$@"' _ "$PIDFILE" \
    "${as[@]}" "$bin/postgres" -D "$DATA" </dev/null >>"$STATE/server.log" 2>&1 &
  local started=$! deadline=$(( $(date +%s) + ${PG_START_TIMEOUT:-60} ))
  until ready; do
    if ! kill -0 "$started" 2>/dev/null; then
      tail -n 40 "$STATE/server.log" >&2 || true
      die "postgres on port $PORT exited during start (log in $STATE/server.log)"
    fi
    [ "$(date +%s)" -lt "$deadline" ] || { stop_server; die "postgres on port $PORT not ready after ${PG_START_TIMEOUT:-60}s"; }
    sleep 0.1
  done
}

do_start() {
  if alive && ready; then log "the cluster on port $PORT is already running"; echo "$URL"; return 0; fi
  [ -d "$STATE" ] && PG_KEEP_STATE= do_stop >/dev/null 2>&1 || true
  port_open "$PORT" && die "127.0.0.1:$PORT is already in use; choose another PORT"
  ensure_installed
  local t0; t0=$(date +%s.%N)
  init_cluster
  run_server
  log "PostgreSQL ready on 127.0.0.1:$PORT after $(awk "BEGIN{printf \"%.2f\", $(date +%s.%N) - $t0}")s (pid $(cat "$PIDFILE"))"
  echo "$URL"
}

do_restart() {
  [ -d "$DATA" ] || die "no cluster at $STATE; start one first"
  stop_server
  run_server
  log "PostgreSQL on 127.0.0.1:$PORT restarted (pid $(cat "$PIDFILE"))"
  echo "$URL"
}

case "$cmd" in
  start) do_start ;;
  stop) do_stop ;;
  restart) do_restart ;;
  install) ensure_installed ;;
  status) alive && ready && echo "PostgreSQL running on port $PORT: $URL" ;;
  url) echo "$URL" ;;
  pid) alive && cat "$PIDFILE" ;;
  *) die "unknown command '$cmd' (start|stop|restart|install|status|url|pid)" ;;
esac
