#!/usr/bin/env bash
# partition.sh — a three-node RabbitMQ cluster inside a network namespace of its
# own, each node on its own loopback address (127.0.0.2, 127.0.0.3, 127.0.0.4),
# for partition tests: links between nodes are cut and healed with iptables
# DROP rules between their addresses, nodes are paused with SIGSTOP. Nothing
# leaves the namespace's loopback interface. Installs rabbitmq-server (through
# scripts/broker.sh install) and iptables with apt-get when missing (sudo only
# when not root; creating a namespace needs root, so run it as root).
#
# Usage:
#   scripts/partition.sh start        create the namespace, start the three nodes,
#                                     join them into one cluster, wait until quorum
#                                     queues can be declared, print the cluster's
#                                     multi-host AMQP URL (last line)
#   scripts/partition.sh stop         stop the nodes, delete the namespace and the
#                                     state: nothing is left behind
#   scripts/partition.sh url          print the multi-host AMQP URL (reachable only
#                                     inside the namespace: use `exec`)
#   scripts/partition.sh nodes        print "N ADDRESS PORT NODENAME" per node
#   scripts/partition.sh cut A B      drop every packet between nodes A and B, both ways
#   scripts/partition.sh heal A B     remove the rules of `cut A B`
#   scripts/partition.sh isolate A    cut A from both other nodes
#   scripts/partition.sh heal-all     remove every rule (the cluster is whole again)
#   scripts/partition.sh rules        print the DROP rules in force
#   scripts/partition.sh wait-whole [SECONDS]  wait (default 120 s) until every node
#                                     runs in the three-node cluster again (after a
#                                     heal, a paused minority node restarts its app);
#                                     a node that after PARTITION_STUCK_AFTER seconds
#                                     (default 30) sees fewer running nodes than both
#                                     others (its app stuck in its boot, or running
#                                     alone after a mnesia partition) is restarted
#   scripts/partition.sh restart N    SIGKILL node N's Erlang VM and start it again on
#                                     its state. RabbitMQ 3.10.8 on Erlang 25.2 was seen
#                                     to hang for good in global:sync when restarting its
#                                     app after a pause_minority pause (is_booting stays
#                                     true); wait-whole restarts such a node
#   scripts/partition.sh pause N      SIGSTOP node N's Erlang VM
#   scripts/partition.sh resume N     SIGCONT it
#   scripts/partition.sh leader QUEUE print the node that leads quorum queue QUEUE
#                                     ("N ADDRESS PORT NODENAME"), asked of the first
#                                     node that answers
#   scripts/partition.sh ctl N -- TOOL ARGS   a CLI tool (rabbitmqctl, rabbitmq-queues,
#                                     ...) against node N
#   scripts/partition.sh exec CMD...  run CMD inside the namespace, with
#                                     ACEMQ_TEST_PARTITION_URL set to the URL
#
# A node (A, B, N) is named by its number (1, 2, 3), its address (127.0.0.3) or
# its AMQP port. The client in the namespace connects from 127.0.0.1, which no
# rule drops: a cut separates nodes, not the client from its node; a node on the
# minority side closes its clients' connections itself (pause_minority).
#
# Typical use (as root):
#   scripts/partition.sh start
#   scripts/partition.sh exec go test -count=1 -run TestPartition ./runtime/rabbitmq/
#   scripts/partition.sh isolate 1; sleep 10; scripts/partition.sh heal-all
#   scripts/partition.sh stop
#
# Knobs (environment):
#   PARTITION_PORTS      the three AMQP ports (default "5721 5722 5723": beside
#                        broker.sh cluster's 5711-5713, so both can run at once);
#                        node N's Erlang distribution listens on port + 20000
#   PARTITION_NS         the namespace's name (default acemq-part-FIRSTPORT)
#   PARTITION_STATE_DIR  where the nodes live (default ${TMPDIR:-/tmp}/acemq-part-FIRSTPORT)
#   PARTITION_EPMD_PORT  the namespace's epmd (default FIRSTPORT + 40000)
#   PARTITION_TICKTIME   net_ticktime in seconds (default 5)
#   RABBIT_START_TIMEOUT seconds to wait for the cluster (default 180)
#
# The cluster runs with cluster_partition_handling = pause_minority: a node
# that sees only a minority stops serving (closes client connections, refuses
# new ones) until it sees a majority again, so a client is pushed to the
# majority, where quorum queues elect a leader, and no node on the minority
# side accepts a publish it cannot replicate. net_ticktime is 5 s (Erlang's
# default is 60 s) so a cut is detected within 5-7 s rather than a minute: the
# 10-s partitions of the test then really partition the cluster. Each node runs
# with one Erlang scheduler and a 512 MB memory watermark (a 2-core machine).
# Only processes whose pids this script recorded are ever signalled.
set -euo pipefail

die() { echo "partition.sh: $*" >&2; exit 1; }
log() { echo "partition.sh: $*" >&2; }

here="$(cd "$(dirname "$0")" && pwd)"
RMQ_BIN=${RABBIT_BIN_DIR:-/usr/lib/rabbitmq/bin}
read -r -a PORTS <<<"${PARTITION_PORTS:-5721 5722 5723}"
[ "${#PORTS[@]}" -eq 3 ] || die "PARTITION_PORTS needs three ports, got '${PORTS[*]}'"
for p in "${PORTS[@]}"; do case "$p" in ''|*[!0-9]*) die "bad port '$p'";; esac; done
ADDRS=(127.0.0.2 127.0.0.3 127.0.0.4)
NS=${PARTITION_NS:-acemq-part-${PORTS[0]}}
STATE=${PARTITION_STATE_DIR:-${TMPDIR:-/tmp}/acemq-part-${PORTS[0]}}
EPMD_PORT=${PARTITION_EPMD_PORT:-$((PORTS[0] + 40000))}
TICK=${PARTITION_TICKTIME:-5}
COOKIE="ACEMQPARTITION${PORTS[0]}"
CHAIN=ACEMQ-PART

nodename() { echo "rabbit$1@${ADDRS[$(($1 - 1))]}"; }
nsx() { ip netns exec "$NS" "$@"; }

# node N: the node's number from a number, an address or a port
node() {
  local i
  for i in 1 2 3; do
    case "${1:-}" in "$i"|"${ADDRS[$((i - 1))]}"|"${PORTS[$((i - 1))]}") echo "$i"; return;; esac
  done
  die "no node '${1:-}' (1 2 3, ${ADDRS[*]}, or ${PORTS[*]})"
}

# node_env N: the environment shared by node N's server and the CLI tools
node_env() {
  local i=$1 ip=${ADDRS[$(($1 - 1))]} port=${PORTS[$(($1 - 1))]} dir="$STATE/node$1"
  local octets=${ip//./,}
  export HOME="$dir" ERL_EPMD_PORT="$EPMD_PORT" RABBITMQ_USE_LONGNAME=true
  export RABBITMQ_NODENAME; RABBITMQ_NODENAME=$(nodename "$i")
  export RABBITMQ_NODE_IP_ADDRESS="$ip" RABBITMQ_NODE_PORT="$port" RABBITMQ_DIST_PORT=$((port + 20000))
  export RABBITMQ_CONF_ENV_FILE="$dir/rabbitmq-env.conf" RABBITMQ_CONFIG_FILE="$dir/rabbitmq.conf"
  export RABBITMQ_ADVANCED_CONFIG_FILE="$dir/advanced.config" RABBITMQ_ENABLED_PLUGINS_FILE="$dir/enabled_plugins"
  export RABBITMQ_MNESIA_BASE="$dir/mnesia" RABBITMQ_LOG_BASE="$dir/log" RABBITMQ_PID_FILE="$dir/beam.pid"
  # listen on the node's address and connect from it, so a rule between two
  # addresses cuts the link between two nodes
  export RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS="-kernel inet_dist_use_interface {$octets} -kernel inet_dist_connect_options [{ip,{$octets}}] -kernel net_ticktime $TICK -kernel prevent_overlapping_partitions false +S 1:1"
  export RABBITMQ_CTL_DIST_PORT_MIN=$((port + 30000)) RABBITMQ_CTL_DIST_PORT_MAX=$((port + 30010))
  unset NOTIFY_SOCKET RABBITMQ_ALLOW_INPUT RABBITMQ_CTL_ERL_ARGS || true
}

# ctl N TOOL ARGS: a CLI tool against node N, inside the namespace
ctl() {
  local i=$1 tool=$2; shift 2
  ( node_env "$i"; nsx timeout 60 "$RMQ_BIN/$tool" -n "$(nodename "$i")" "$@" )
}

ensure_tools() {
  "$here/broker.sh" install
  command -v iptables >/dev/null && return 0
  local sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo -E"
  log "installing iptables with apt-get"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get install -y iptables >&2 || { $sudo apt-get update >&2 && $sudo apt-get install -y iptables >&2; } \
    || die "apt-get install iptables failed"
}

write_node() {  # write_node N: a fresh state dir for node N
  local dir="$STATE/node$1" ip=${ADDRS[$(($1 - 1))]} port=${PORTS[$(($1 - 1))]}
  mkdir -p "$dir/log" "$dir/mnesia"; chmod 700 "$dir"
  : >"$dir/rabbitmq-env.conf"; echo '[].' >"$dir/enabled_plugins"
  printf '%s' "$COOKIE" >"$dir/.erlang.cookie"; chmod 400 "$dir/.erlang.cookie"
  cat >"$dir/rabbitmq.conf" <<EOF
listeners.tcp.default = $ip:$port
cluster_partition_handling = pause_minority
disk_free_limit.absolute = 50MB
vm_memory_high_watermark.absolute = 512MB
log.console = false
log.file.level = info
EOF
}

amqp_ready() {  # amqp_ready N: node N answers an AMQP protocol header
  local ip=${ADDRS[$(($1 - 1))]} port=${PORTS[$(($1 - 1))]}
  nsx timeout 3 bash -c "exec 3<>/dev/tcp/$ip/$port && printf 'AMQP\x00\x00\x09\x01' >&3 && head -c 1 <&3 | od -An -tx1 | grep -q 01" 2>/dev/null
}

beam_pid() {  # beam_pid N: the pid of node N's beam.smp, when it runs
  local f="$STATE/node$1/beam.pid" pid
  [ -s "$f" ] || return 1
  pid=$(cat "$f"); [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = beam.smp ] || return 1
  tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | grep -qx "RABBITMQ_NODENAME=$(nodename "$1")" || return 1
  echo "$pid"
}

start_node() {  # start_node N: start node N's server in the namespace
  write_node "$1"
  ( node_env "$1"; cd "$HOME" && exec ip netns exec "$NS" setsid "$RMQ_BIN/rabbitmq-server" </dev/null >"$HOME/log/console.log" 2>&1 ) &
  echo $! >"$STATE/node$1/wrapper.pid"
}

cluster_ready() {  # every node runs in one three-node cluster
  local i out
  for i in 1 2 3; do
    out=$(ctl "$i" rabbitmqctl cluster_status --formatter json 2>/dev/null) || return 1
    [ "$(grep -o '"running_nodes":\[[^]]*\]' <<<"$out" | grep -o 'rabbit[0-9]@' | sort -u | wc -l)" -eq 3 ] || return 1
  done
}

wait_for() {  # wait_for SECONDS WHAT COMMAND...
  local deadline=$(( $(date +%s) + $1 )) what=$2; shift 2
  until "$@"; do [ "$(date +%s)" -lt "$deadline" ] || return 1; sleep 0.5; done
}

# restart_node N: SIGKILL node N's VM and start it on its state
restart_node() {
  local pid
  if pid=$(beam_pid "$1"); then kill -KILL "$pid"; while [ -e "/proc/$pid" ]; do sleep 0.1; done; fi
  kill_pidfile "$STATE/node$1/wrapper.pid" rabbitmq-server
  ( node_env "$1"; cd "$HOME" && exec ip netns exec "$NS" setsid "$RMQ_BIN/rabbitmq-server" </dev/null >>"$HOME/log/console.log" 2>&1 ) &
  echo $! >"$STATE/node$1/wrapper.pid"
  log "restarted node $1"
}

seen() {  # seen N: how many running nodes node N sees in its cluster (0: its app is down)
  local out
  out=$(ctl "$1" rabbitmqctl cluster_status --formatter json 2>/dev/null) || { echo 0; return; }
  grep -o '"running_nodes":\[[^]]*\]' <<<"$out" | grep -o 'rabbit[0-9]@' | sort -u | wc -l
}

# odd_one: the node that sees fewer running nodes than both others (its app
# stuck in its boot, or a mnesia partition left after a heal, where it runs
# alone); nothing when there is none
odd_one() {
  local s1 s2 s3
  s1=$(seen 1); s2=$(seen 2); s3=$(seen 3)
  if [ "$s1" -lt "$s2" ] && [ "$s1" -lt "$s3" ]; then echo 1
  elif [ "$s2" -lt "$s1" ] && [ "$s2" -lt "$s3" ]; then echo 2
  elif [ "$s3" -lt "$s1" ] && [ "$s3" -lt "$s2" ]; then echo 3; fi
}

# wait_whole SECONDS: wait until the cluster is whole, restarting a node
# that stays apart from the two others
wait_whole() {
  local deadline=$(( $(date +%s) + $1 )) stuck_at=$(( $(date +%s) + ${PARTITION_STUCK_AFTER:-30} )) odd
  until cluster_ready; do
    [ "$(date +%s)" -lt "$deadline" ] || return 1
    if [ "$(date +%s)" -ge "$stuck_at" ]; then
      odd=$(odd_one)
      if [ -n "$odd" ]; then log "node $odd stays apart from the cluster"; restart_node "$odd"; fi
      stuck_at=$(( $(date +%s) + 60 ))
    fi
    sleep 1
  done
}

do_start() {
  ensure_tools
  if ip netns list | grep -qw "$NS"; then do_stop; fi
  local t0 i; t0=$(date +%s)
  rm -rf "$STATE"; mkdir -p "$STATE"
  ip netns add "$NS"; nsx ip link set lo up
  for i in 2 3 4; do nsx ip addr add "127.0.0.$i/32" dev lo 2>/dev/null || true; done
  nsx iptables -N "$CHAIN"; nsx iptables -I INPUT -j "$CHAIN"
  ( export HOME="$STATE"; exec ip netns exec "$NS" setsid epmd -port "$EPMD_PORT" </dev/null >"$STATE/epmd.log" 2>&1 ) &
  echo $! >"$STATE/epmd.pid"
  local timeout=${RABBIT_START_TIMEOUT:-180}
  for i in 1 2 3; do start_node "$i"; done
  for i in 1 2 3; do wait_for "$timeout" "node $i" amqp_ready "$i" || { do_stop; die "node $i did not start"; }; done
  for i in 2 3; do
    { ctl "$i" rabbitmqctl stop_app && ctl "$i" rabbitmqctl join_cluster "$(nodename 1)" && ctl "$i" rabbitmqctl start_app; } >/dev/null \
      || { do_stop; die "node $i could not join $(nodename 1)"; }
  done
  wait_for "$timeout" cluster cluster_ready || { do_stop; die "the cluster was not ready in time"; }
  log "cluster of ${ADDRS[*]} (ports ${PORTS[*]}) ready in namespace $NS after $(( $(date +%s) - t0 ))s"
  url
}

# kill_pidfile FILE COMM: TERM (then KILL) the recorded pid, if it still is COMM
kill_pidfile() {
  local pid; [ -s "$1" ] || return 0; pid=$(cat "$1")
  [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$2" ] || return 0
  kill -CONT "$pid" 2>/dev/null || true; kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 100); do [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$2" ] || return 0; sleep 0.1; done
  kill -KILL "$pid" 2>/dev/null || true
}

do_stop() {
  local i
  if ip netns list | grep -qw "$NS"; then nsx iptables -F "$CHAIN" 2>/dev/null || true; fi
  for i in 1 2 3; do
    [ -d "$STATE/node$i" ] || continue
    ( kill_pidfile "$STATE/node$i/beam.pid" beam.smp; kill_pidfile "$STATE/node$i/wrapper.pid" rabbitmq-server ) &
  done
  wait
  [ -d "$STATE" ] && kill_pidfile "$STATE/epmd.pid" epmd
  if ip netns list | grep -qw "$NS"; then ip netns del "$NS"; fi
  rm -rf "$STATE"
  log "stopped; namespace $NS deleted"
}

url() {
  local hosts="" i
  for i in 0 1 2; do hosts+="${hosts:+,}${ADDRS[$i]}:${PORTS[$i]}"; done
  echo "amqp://guest:guest@$hosts/"
}

rule() {  # rule -A|-D A B: add or delete the DROPs between nodes A and B
  local a=${ADDRS[$(($2 - 1))]} b=${ADDRS[$(($3 - 1))]}
  [ "$2" != "$3" ] || die "a node cannot be cut from itself"
  if [ "$1" = -A ]; then rule -D "$2" "$3" 2>/dev/null || true; fi
  nsx iptables "$1" "$CHAIN" -s "$a" -d "$b" -j DROP
  nsx iptables "$1" "$CHAIN" -s "$b" -d "$a" -j DROP
}

leader() {  # leader QUEUE: the node leading it
  local i out name
  for i in 1 2 3; do
    out=$(ctl "$i" rabbitmqctl list_queues -q --no-table-headers name leader 2>/dev/null) || continue
    name=$(awk -v q="$1" '$1 == q {print $2}' <<<"$out")
    [ -n "$name" ] || continue
    for i in 1 2 3; do [ "$name" = "$(nodename "$i")" ] && { echo "$i ${ADDRS[$((i - 1))]} ${PORTS[$((i - 1))]} $name"; return; }; done
    die "queue $1 is led by $name, not a node of this cluster"
  done
  die "no node answered for queue '$1' (or it has no leader)"
}

signal_node() {  # signal_node SIG N
  local pid; pid=$(beam_pid "$2") || die "node $2 is not running"
  kill "-$1" "$pid"; log "node $2 (beam $pid): SIG$1"
}

cmd=${1:-}; shift || true
case "$cmd" in
  start) do_start ;;
  stop) do_stop ;;
  url) url ;;
  nodes) for i in 1 2 3; do echo "$i ${ADDRS[$((i - 1))]} ${PORTS[$((i - 1))]} $(nodename "$i")"; done ;;
  cut) rule -A "$(node "${1:-}")" "$(node "${2:-}")"; log "cut $1 <-> $2" ;;
  heal) rule -D "$(node "${1:-}")" "$(node "${2:-}")" 2>/dev/null || true; log "healed $1 <-> $2" ;;
  isolate)
    a=$(node "${1:-}")
    for b in 1 2 3; do [ "$b" = "$a" ] || rule -A "$a" "$b"; done; log "isolated node $a" ;;
  heal-all) nsx iptables -F "$CHAIN"; log "healed every link" ;;
  rules) nsx iptables -S "$CHAIN" ;;
  wait-whole) wait_whole "${1:-120}" || die "the cluster is not whole after ${1:-120}s"; log "the cluster is whole" ;;
  restart) restart_node "$(node "${1:-}")" ;;
  pause) signal_node STOP "$(node "${1:-}")" ;;
  resume) signal_node CONT "$(node "${1:-}")" ;;
  leader) [ -n "${1:-}" ] || die "usage: partition.sh leader QUEUE"; leader "$1" ;;
  ctl) i=$(node "${1:-}"); shift; [ "${1:-}" = -- ] && shift; [ $# -ge 1 ] || die "usage: partition.sh ctl N -- TOOL ARGS"; ctl "$i" "$@" ;;
  exec) [ $# -ge 1 ] || die "usage: partition.sh exec CMD..."; ACEMQ_TEST_PARTITION_URL=$(url) nsx "$@" ;;
  *) die "usage: partition.sh start|stop|url|nodes|cut A B|heal A B|isolate A|heal-all|rules|wait-whole [SECONDS]|restart N|pause N|resume N|leader QUEUE|ctl N -- TOOL ARGS|exec CMD..." ;;
esac
