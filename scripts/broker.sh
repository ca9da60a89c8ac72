#!/usr/bin/env bash
# broker.sh — run a private, throw-away RabbitMQ node (Debian's rabbitmq-server
# package) for acemq-gen's integration tests, without systemd or Docker, as root
# or any user, bound to loopback only.  Installs rabbitmq-server with apt-get
# when /usr/lib/rabbitmq/bin is missing (sudo only when not root).
#
# Usage:
#   scripts/broker.sh start [PORT]   start a node, wait until it accepts AMQP,
#                                    print its AMQP URL on stdout (last line)
#   scripts/broker.sh stop  [PORT]   stop that node (by node name, then by pid)
#   scripts/broker.sh install        install rabbitmq-server with apt when missing
#   scripts/broker.sh status [PORT]  exit 0 if the node is running
#   scripts/broker.sh url   [PORT]   print the AMQP URL
#   scripts/broker.sh tls-url [PORT] print the AMQPS URL of the TLS listener
#   scripts/broker.sh pid   [PORT]   print the pid of the node's beam.smp
#   scripts/broker.sh ctl [PORT] -- rabbitmqctl|rabbitmq-diagnostics|... ARGS
#                                    run a CLI tool against the node
#   scripts/broker.sh cluster start  start three nodes on loopback joined into one
#                                    cluster (ports $RABBIT_CLUSTER_PORTS, default
#                                    "5711 5712 5713"), wait until quorum queues can
#                                    be declared, print the cluster's multi-host
#                                    AMQP URL (last line)
#   scripts/broker.sh cluster stop   stop every node of the cluster, each by its pid
#   scripts/broker.sh cluster kill PORT    SIGKILL that node's Erlang VM (no clean
#                                    shutdown; its state stays for revive)
#   scripts/broker.sh cluster revive PORT  start a killed node again on its state:
#                                    it rejoins the cluster
#   scripts/broker.sh cluster url|ports    print the cluster URL / its ports
#   scripts/broker.sh cluster ctl PORT -- TOOL ARGS   a CLI tool against a node
#
# Typical use:
#   export ACEMQ_TEST_AMQP_URL=$(scripts/broker.sh start)
#   ACEMQ_REQUIRE_BROKER=1 go test -race ./runtime/rabbitmq/
#   scripts/broker.sh stop
#
# PORT defaults to $RABBIT_PORT, else 5679 (not 5672, so a developer's own
# broker does not collide).  Other knobs (environment):
#   RABBIT_MGMT=1            also enable rabbitmq_management (HTTP on
#                            127.0.0.1:$RABBIT_MGMT_PORT, default PORT+10000)
#   RABBIT_STATE_DIR         where the node lives (default ${TMPDIR:-/tmp}/rabbit-PORT)
#   RABBIT_DIST_PORT         Erlang distribution port  (default PORT+20000)
#   RABBIT_EPMD_PORT         private epmd port         (default PORT+40000)
#   RABBIT_START_TIMEOUT     seconds to wait for start (default 120)
#   RABBIT_KEEP_STATE=1      keep the state dir (logs, data) after stop
#   RABBIT_COOKIE            Erlang cookie to use (nodes of one cluster share it; default random)
#   RABBIT_SCHEDULERS        Erlang schedulers (+S N:N; default: the VM's, one per core)
#   RABBIT_MEMORY_WATERMARK  vm_memory_high_watermark.absolute (such as 512MB;
#                            default: relative 0.4 of the machine's memory)
#   RABBIT_CLUSTER_PORTS     the three AMQP ports of `cluster` (default "5711 5712 5713");
#                            the cluster shares epmd on RABBIT_EPMD_PORT (default
#                            first port + 40000) and one cookie; each node is
#                            started with 1 scheduler and a 512MB watermark
#                            unless RABBIT_SCHEDULERS/RABBIT_MEMORY_WATERMARK say otherwise
#   RABBIT_TLS_DIR           also open a TLS listener on 127.0.0.1:$RABBIT_TLS_PORT
#                            (default PORT+1) with DIR/server.pem and DIR/server.key;
#                            when DIR/ca.pem is missing, a throw-away CA and server
#                            certificate are generated there first (go run
#                            ./scripts/devcerts). Clients trust DIR/ca.pem.
#
# Every node gets its own state dir, Erlang cookie (HOME is pointed at the
# state dir), epmd on its own port, and node name rabbitPORT@localhost, so
# nothing depends on /etc/rabbitmq, /var/lib/rabbitmq, ~/.erlang.cookie, the
# machine's hostname resolving, or a system-wide epmd.  Only processes whose
# pids this script recorded are ever signalled.
set -euo pipefail

RMQ_BIN=${RABBIT_BIN_DIR:-/usr/lib/rabbitmq/bin}
EPMD_BIN=${RABBIT_EPMD_BIN:-$(command -v epmd || echo /usr/lib/erlang/bin/epmd)}

die() { echo "broker.sh: $*" >&2; exit 1; }
log() { echo "broker.sh: $*" >&2; }
# port_open PORT: something accepts TCP on 127.0.0.1:PORT
port_open() { timeout 2 bash -c "exec 3<>/dev/tcp/127.0.0.1/$1" 2>/dev/null; }

# ---- cluster: three nodes of this script joined into one RabbitMQ cluster ----
self="$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"

cluster_setup() {
  read -r -a CPORTS <<<"${RABBIT_CLUSTER_PORTS:-5711 5712 5713}"
  [ "${#CPORTS[@]}" -eq 3 ] || die "RABBIT_CLUSTER_PORTS needs three ports, got '${CPORTS[*]}'"
  local p
  for p in "${CPORTS[@]}"; do case "$p" in *[!0-9]*) die "bad cluster port '$p'";; esac; done
  export RABBIT_EPMD_PORT=${RABBIT_EPMD_PORT:-$((CPORTS[0] + 40000))}
  export RABBIT_COOKIE=${RABBIT_COOKIE:-ACEMQCLUSTERCOOKIE${CPORTS[0]}}
  export RABBIT_SCHEDULERS=${RABBIT_SCHEDULERS:-1}
  export RABBIT_MEMORY_WATERMARK=${RABBIT_MEMORY_WATERMARK:-512MB}
  SEED="rabbit${CPORTS[0]}@localhost"
}

cluster_url() {
  local hosts="" p
  for p in "${CPORTS[@]}"; do hosts+="${hosts:+,}127.0.0.1:$p"; done
  echo "amqp://guest:guest@$hosts/"
}

cluster_port() {  # cluster_port PORT: PORT is one of the cluster's
  local p
  for p in "${CPORTS[@]}"; do [ "$p" = "${1:-}" ] && return 0; done
  die "port '${1:-}' is not a cluster port (${CPORTS[*]})"
}

cluster_ctl() { "$self" ctl "$@"; }

# cluster_ready: every node runs in one cluster with the quorum_queue feature
# flag enabled, so quorum queues can be declared with three members.
cluster_ready() {
  local p out
  for p in "${CPORTS[@]}"; do
    out=$(cluster_ctl "$p" -- rabbitmqctl cluster_status --formatter json 2>/dev/null) || return 1
    [ "$(grep -o '"running_nodes":\[[^]]*\]' <<<"$out" | grep -o 'rabbit[0-9]*@localhost' | sort -u | wc -l)" -eq 3 ] || return 1
  done
  out=$(cluster_ctl "${CPORTS[0]}" -- rabbitmqctl eval 'rabbit_feature_flags:is_enabled(quorum_queue).' 2>/dev/null) || return 1
  [ "$out" = true ]
}

cluster_join() {  # cluster_join PORT: the node joins the seed's cluster
  cluster_ctl "$1" -- rabbitmqctl stop_app >/dev/null
  cluster_ctl "$1" -- rabbitmqctl join_cluster "$SEED" >/dev/null
  cluster_ctl "$1" -- rabbitmqctl start_app >/dev/null
}

# port_open PORT: something accepts TCP on 127.0.0.1:PORT
port_open() { timeout 2 bash -c "exec 3<>/dev/tcp/127.0.0.1/$1" 2>/dev/null; }

cluster_start() {
  local t0 p pids=() out; t0=$(date +%s)
  out=$(mktemp -d -t acemq-cluster.XXXXXX)
  # all three in parallel, the seed first: it starts the shared epmd
  "$self" start "${CPORTS[0]}" >"$out/${CPORTS[0]}" 2>&1 & pids+=($!)
  for _ in $(seq 100); do port_open "$RABBIT_EPMD_PORT" && break; sleep 0.1; done
  for p in "${CPORTS[@]:1}"; do "$self" start "$p" >"$out/$p" 2>&1 & pids+=($!); done
  for i in "${!pids[@]}"; do
    wait "${pids[$i]}" || { cat "$out/${CPORTS[$i]}" >&2; rm -rf "$out"; cluster_stop; die "cluster: node ${CPORTS[$i]} did not start"; }
  done
  rm -rf "$out"
  for p in "${CPORTS[@]:1}"; do cluster_join "$p" || { cluster_stop; die "cluster: node $p could not join $SEED"; }; done
  local deadline=$(( $(date +%s) + ${RABBIT_START_TIMEOUT:-120} ))
  until cluster_ready; do
    [ "$(date +%s)" -lt "$deadline" ] || { cluster_stop; die "cluster: not ready (three running nodes, quorum queues) in time"; }
    sleep 0.5
  done
  log "cluster of ${CPORTS[*]} ready after $(( $(date +%s) - t0 ))s"
  cluster_url
}

cluster_stop() {  # the seed owns the shared epmd: stop it last
  local p
  for p in "${CPORTS[@]:1}"; do RABBIT_KEEP_STATE= "$self" stop "$p" >/dev/null 2>&1 & done
  wait
  RABBIT_KEEP_STATE= "$self" stop "${CPORTS[0]}" >/dev/null 2>&1 || true
}

cluster_kill() {
  cluster_port "$1"
  local pid
  pid=$("$self" pid "$1") || die "cluster: node $1 is not running"
  kill -KILL "$pid"
  local i=0
  while [ -e "/proc/$pid" ] && [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = beam.smp ]; do
    [ "$i" -lt 100 ] || die "cluster: node $1 (pid $pid) survived SIGKILL"
    sleep 0.1; i=$((i + 1))
  done
  log "killed node $1 (beam pid $pid)"
}

cluster_revive() {
  cluster_port "$1"
  RABBIT_REVIVE=1 "$self" start "$1" >/dev/null || die "cluster: node $1 did not come back"
  local deadline=$(( $(date +%s) + ${RABBIT_START_TIMEOUT:-120} ))
  until cluster_ready; do
    [ "$(date +%s)" -lt "$deadline" ] || die "cluster: node $1 is back but did not rejoin in time"
    sleep 0.5
  done
  log "node $1 is back in the cluster"
}

cluster_main() {
  cluster_setup
  case "${1:-}" in
    start) cluster_start ;;
    stop) cluster_stop ;;
    kill) cluster_kill "${2:-}" ;;
    revive) cluster_revive "${2:-}" ;;
    url) cluster_url ;;
    ports) echo "${CPORTS[*]}" ;;
    ctl) shift; cluster_port "${1:-}"; cluster_ctl "$@" ;;
    *) die "usage: broker.sh cluster start|stop|kill PORT|revive PORT|url|ports|ctl PORT -- TOOL ARGS" ;;
  esac
}

if [ "${1:-}" = cluster ]; then shift; cluster_main "$@"; exit; fi

cmd=${1:-}
[ -n "$cmd" ] || die "usage: broker.sh start|stop|install|status|url|tls-url|pid|ctl [PORT]"
shift
PORT=${RABBIT_PORT:-5679}
if [ $# -gt 0 ] && [ "$1" != "--" ]; then PORT=$1; shift; fi
[ "${1:-}" = "--" ] && shift
case "$PORT" in ''|*[!0-9]*) die "bad port '$PORT'";; esac

DIST_PORT=${RABBIT_DIST_PORT:-$((PORT + 20000))}
EPMD_PORT=${RABBIT_EPMD_PORT:-$((PORT + 40000))}
MGMT_PORT=${RABBIT_MGMT_PORT:-$((PORT + 10000))}
CTL_PORT_MIN=$((DIST_PORT + 10000))
for p in "$DIST_PORT" "$EPMD_PORT" "$MGMT_PORT" "$((CTL_PORT_MIN + 10))"; do
  [ "$p" -le 65535 ] || die "derived port $p > 65535; set RABBIT_DIST_PORT/RABBIT_EPMD_PORT/RABBIT_MGMT_PORT"
done
STATE=${RABBIT_STATE_DIR:-${TMPDIR:-/tmp}/rabbit-$PORT}
NODE="rabbit${PORT}@localhost"
URL="amqp://guest:guest@127.0.0.1:${PORT}/"
TLS_PORT=${RABBIT_TLS_PORT:-$((PORT + 1))}
TLS_URL="amqps://guest:guest@127.0.0.1:${TLS_PORT}/"

# Environment shared by the server and every CLI call.
export HOME="$STATE"                             # cookie lives in $STATE/.erlang.cookie
export ERL_EPMD_PORT="$EPMD_PORT" ERL_EPMD_ADDRESS=127.0.0.1
export RABBITMQ_NODENAME="$NODE"
export RABBITMQ_NODE_IP_ADDRESS=127.0.0.1 RABBITMQ_NODE_PORT="$PORT"
export RABBITMQ_DIST_PORT="$DIST_PORT"
export RABBITMQ_CONF_ENV_FILE="$STATE/rabbitmq-env.conf"   # not /etc/rabbitmq/...
export RABBITMQ_CONFIG_FILE="$STATE/rabbitmq.conf"
export RABBITMQ_ADVANCED_CONFIG_FILE="$STATE/advanced.config"
export RABBITMQ_ENABLED_PLUGINS_FILE="$STATE/enabled_plugins"
export RABBITMQ_MNESIA_BASE="$STATE/mnesia"
export RABBITMQ_LOG_BASE="$STATE/log"
export RABBITMQ_PID_FILE="$STATE/beam.pid"
export RABBITMQ_CTL_DIST_PORT_MIN="$CTL_PORT_MIN" RABBITMQ_CTL_DIST_PORT_MAX="$((CTL_PORT_MIN + 10))"
export RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS="-kernel inet_dist_use_interface {127,0,0,1}${RABBIT_SCHEDULERS:+ +S $RABBIT_SCHEDULERS:$RABBIT_SCHEDULERS}"
export RABBITMQ_CTL_ERL_ARGS="-kernel inet_dist_use_interface {127,0,0,1}"
unset RABBITMQ_USE_LONGNAME NOTIFY_SOCKET RABBITMQ_ALLOW_INPUT || true


# amqp_ready: the broker answers an AMQP 0-9-1 protocol header with a
# Connection.Start method frame (frame type 1, channel 0, class 10 method 10).
amqp_ready() {
  local hex
  hex=$(timeout 3 bash -c "exec 3<>/dev/tcp/127.0.0.1/$PORT || exit 1
      printf 'AMQP\x00\x00\x09\x01' >&3
      head -c 11 <&3 | od -An -tx1 | tr -d ' \n'" 2>/dev/null) || return 1
  [[ "$hex" == 010000* && "${hex:14:8}" == 000a000a ]]
}

# alive PIDFILE COMM: the pid in PIDFILE is running and its command is COMM
alive() {
  local pid
  [ -s "$1" ] || return 1
  pid=$(cat "$1" 2>/dev/null) || return 1
  case "$pid" in ''|*[!0-9]*) return 1;; esac
  [ -r "/proc/$pid/comm" ] || return 1
  [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$2" ] || return 1
  # beam: also make sure it is *our* node, not a recycled pid
  if [ "$2" = beam.smp ]; then tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | grep -qx -- "RABBITMQ_NODENAME=$NODE" || return 1; fi
  return 0
}

# ensure_installed: install Debian's rabbitmq-server when it is missing
# (CI machines and fresh clones); sudo only when not root.
ensure_installed() {
  [ -x "$RMQ_BIN/rabbitmq-server" ] && return 0
  # two nodes started at once must not both run apt (dpkg takes one at a time)
  exec 9>"${TMPDIR:-/tmp}/acemq-broker-install.lock"
  flock 9
  [ -x "$RMQ_BIN/rabbitmq-server" ] && { flock -u 9; return 0; }
  [ -n "${RABBIT_BIN_DIR:-}" ] && die "$RMQ_BIN/rabbitmq-server missing (RABBIT_BIN_DIR is set; not installing)"
  command -v apt-get >/dev/null || die "$RMQ_BIN/rabbitmq-server missing and no apt-get: install RabbitMQ yourself"
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || die "rabbitmq-server missing; run as root or install sudo"
    sudo="sudo -E"
  fi
  log "installing rabbitmq-server with apt-get"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update >&2 || die "apt-get update failed"
  $sudo apt-get install -y rabbitmq-server >&2 || die "apt-get install rabbitmq-server failed"
  # the package may start a system node through its own init scripts; we never use it
  [ -x "$RMQ_BIN/rabbitmq-server" ] || die "$RMQ_BIN/rabbitmq-server still missing after install"
  EPMD_BIN=$(command -v epmd || echo /usr/lib/erlang/bin/epmd)
  flock -u 9
}

# tls_config: generate the development certificates when RABBIT_TLS_DIR has
# none, and print the rabbitmq.conf lines of the TLS listener.
tls_config() {
  local dir
  dir=$(mkdir -p "$RABBIT_TLS_DIR" && cd "$RABBIT_TLS_DIR" && pwd)
  if [ ! -s "$dir/ca.pem" ]; then
    ( cd "$(dirname "$0")/.." && go run ./scripts/devcerts -out "$dir" ) >&2 \
      || die "cannot generate development certificates in $dir"
  fi
  port_open "$TLS_PORT" && die "TLS port 127.0.0.1:$TLS_PORT is already in use; set RABBIT_TLS_PORT"
  cat <<EOC
listeners.ssl.default = 127.0.0.1:$TLS_PORT
ssl_options.cacertfile = $dir/ca.pem
ssl_options.certfile = $dir/server.pem
ssl_options.keyfile = $dir/server.key
ssl_options.verify = verify_none
ssl_options.fail_if_no_peer_cert = false
EOC
}

ctl() {  # ctl TOOL ARGS...
  local tool=$1; shift
  "$RMQ_BIN/$tool" -n "$NODE" "$@"
}

# wait_gone PIDFILE COMM SECONDS
wait_gone() {
  local i=0
  while alive "$1" "$2"; do
    [ "$i" -ge "$(( $3 * 10 ))" ] && return 1
    sleep 0.1; i=$((i + 1))
  done
}

# kill_recorded PIDFILE COMM: TERM, then KILL after 20 s; only if pid still is COMM
kill_recorded() {
  alive "$1" "$2" || return 0
  kill -TERM "$(cat "$1")" 2>/dev/null || true
  if ! wait_gone "$1" "$2" 20; then
    log "$2 (pid $(cat "$1")) ignored SIGTERM, sending SIGKILL"
    kill -KILL "$(cat "$1")" 2>/dev/null || true
    wait_gone "$1" "$2" 5 || true
  fi
}

do_stop() {
  if [ ! -d "$STATE" ]; then log "no node state at $STATE (not running)"; return 0; fi
  if alive "$STATE/beam.pid" beam.smp; then
    # graceful: rabbitmqctl stop PIDFILE returns once the OS process has exited
    timeout 90 "$RMQ_BIN/rabbitmqctl" -n "$NODE" stop "$STATE/beam.pid" >>"$STATE/stop.log" 2>&1 \
      || log "rabbitmqctl stop failed (see $STATE/stop.log); falling back to signals"
  fi
  kill_recorded "$STATE/beam.pid" beam.smp
  kill_recorded "$STATE/wrapper.pid" rabbitmq-server
  kill_recorded "$STATE/epmd.pid" epmd
  if [ "${RABBIT_KEEP_STATE:-}" = 1 ]; then
    log "stopped $NODE; state kept in $STATE"
  else
    rm -rf "$STATE"; log "stopped $NODE"
  fi
}

write_state() {  # a fresh state dir: cookie, rabbitmq.conf, plugins
  rm -rf "$STATE"; mkdir -p "$STATE/log" "$STATE/mnesia"; chmod 700 "$STATE"
  : >"$RABBITMQ_CONF_ENV_FILE"
  # private cookie (CLI tools read $HOME/.erlang.cookie; HOME=$STATE)
  if [ -n "${RABBIT_COOKIE:-}" ]; then printf '%s' "$RABBIT_COOKIE" >"$STATE/.erlang.cookie"
  else head -c 30 /dev/urandom | od -An -tx1 | tr -d ' \n' | tr 'a-f' 'A-F' >"$STATE/.erlang.cookie"; fi
  chmod 400 "$STATE/.erlang.cookie"
  cat >"$RABBITMQ_CONFIG_FILE" <<EOF
listeners.tcp.default = 127.0.0.1:$PORT
loopback_users.guest = true
# small test box: don't let a nearly full /tmp raise a disk alarm that blocks publishers
disk_free_limit.absolute = 50MB
$(if [ -n "${RABBIT_MEMORY_WATERMARK:-}" ]; then echo "vm_memory_high_watermark.absolute = $RABBIT_MEMORY_WATERMARK"
  else echo "vm_memory_high_watermark.relative = 0.4"; fi)
log.console = false
log.file.level = info
management.tcp.ip = 127.0.0.1
management.tcp.port = $MGMT_PORT
EOF
  [ -z "${RABBIT_TLS_DIR:-}" ] || tls_config >>"$RABBITMQ_CONFIG_FILE"
  if [ "${RABBIT_MGMT:-}" = 1 ]; then
    "$RMQ_BIN/rabbitmq-plugins" --offline enable rabbitmq_management >"$STATE/log/plugins.log" 2>&1 \
      || { cat "$STATE/log/plugins.log" >&2; die "enabling rabbitmq_management failed"; }
  else
    echo '[].' >"$RABBITMQ_ENABLED_PLUGINS_FILE"
  fi
}

do_start() {
  if alive "$STATE/beam.pid" beam.smp && amqp_ready; then
    log "$NODE already running"; echo "$URL"; return 0
  fi
  if [ "${RABBIT_REVIVE:-}" = 1 ]; then
    # a killed cluster node comes back on its own state (mnesia, cookie, config)
    [ -s "$RABBITMQ_CONFIG_FILE" ] || die "no node state at $STATE to revive"
    kill_recorded "$STATE/wrapper.pid" rabbitmq-server
  else
    # leftovers of a crashed run with this port: clean them up by recorded pid
    [ -d "$STATE" ] && RABBIT_KEEP_STATE= do_stop >/dev/null 2>&1 || true
  fi
  for p in "$PORT" "$DIST_PORT"; do
    port_open "$p" && die "127.0.0.1:$p is already in use; choose another PORT"
  done
  [ "${RABBIT_MGMT:-}" = 1 ] && port_open "$MGMT_PORT" && die "management port 127.0.0.1:$MGMT_PORT in use"
  ensure_installed

  local t0; t0=$(date +%s.%N)
  [ "${RABBIT_REVIVE:-}" = 1 ] || write_state

  # private epmd on loopback (reuse one already answering on that port)
  if ! port_open "$EPMD_PORT"; then
    setsid "$EPMD_BIN" -port "$EPMD_PORT" -address 127.0.0.1 </dev/null >"$STATE/log/epmd.log" 2>&1 &
    echo $! >"$STATE/epmd.pid"
    for _ in $(seq 50); do port_open "$EPMD_PORT" && break; sleep 0.1; done
  fi

  # the server script stays in the foreground and forwards SIGTERM to beam.smp
  ( cd "$STATE" && exec setsid "$RMQ_BIN/rabbitmq-server" </dev/null >"$STATE/log/console.log" 2>&1 ) &
  echo $! >"$STATE/wrapper.pid"

  local deadline=$(( $(date +%s) + ${RABBIT_START_TIMEOUT:-120} ))
  until amqp_ready; do
    if ! alive "$STATE/wrapper.pid" rabbitmq-server && ! alive "$STATE/beam.pid" beam.smp; then
      tail -n 40 "$STATE/log/console.log" >&2 || true
      die "node $NODE exited during start (logs in $STATE/log)"
    fi
    [ "$(date +%s)" -lt "$deadline" ] || { do_stop; die "node $NODE not ready after ${RABBIT_START_TIMEOUT:-120}s"; }
    sleep 0.2
  done
  if [ -n "${RABBIT_TLS_DIR:-}" ]; then
    until port_open "$TLS_PORT"; do
      [ "$(date +%s)" -lt "$deadline" ] || { do_stop; die "TLS listener 127.0.0.1:$TLS_PORT not open"; }
      sleep 0.2
    done
    log "TLS listener at $TLS_URL (trust $RABBIT_TLS_DIR/ca.pem)"
  fi
  local t1; t1=$(date +%s.%N)
  # confirm with the broker's own tooling: boot finished (plugins included)
  ctl rabbitmqctl await_startup --timeout 60 -q >"$STATE/log/await.log" 2>&1 \
    || { cat "$STATE/log/await.log" >&2; die "await_startup failed"; }
  local t2; t2=$(date +%s.%N)
  log "$NODE ready: AMQP after $(awk "BEGIN{printf \"%.2f\", $t1 - $t0}")s, await_startup ok after $(awk "BEGIN{printf \"%.2f\", $t2 - $t0}")s (beam pid $(cat "$STATE/beam.pid" 2>/dev/null))"
  if [ "${RABBIT_MGMT:-}" = 1 ]; then
    log "management UI: http://127.0.0.1:$MGMT_PORT/ (guest/guest)"
  fi
  echo "$URL"
}

case "$cmd" in
  start) do_start ;;
  install) ensure_installed ;;
  stop) do_stop ;;
  status) alive "$STATE/beam.pid" beam.smp && amqp_ready && echo "$NODE running: $URL" ;;
  url) echo "$URL" ;;
  tls-url) echo "$TLS_URL" ;;
  pid) alive "$STATE/beam.pid" beam.smp && cat "$STATE/beam.pid" ;;
  ctl) [ $# -ge 1 ] || die "usage: broker.sh ctl [PORT] -- TOOL ARGS..."; ctl "$@" ;;
  *) die "unknown command '$cmd' (start|stop|install|status|url|tls-url|pid|ctl)" ;;
esac
