#!/usr/bin/env bash
# Local infrastructure for Orquestra without Docker:
#   - mongo-java-server 1.47 (MongoDB wire protocol, single-document atomicity) as the local store,
#     fetched from Maven Central by Maven and started by a small launcher (tools/infra/mongo-java-server)
#   - RabbitMQ from Debian's rabbitmq-server package, run as a plain user process
#
# Usage: tools/infra/infra.sh [up|down|status|env|install]      (default: up)
#
#   up      install what is missing, start what is not already answering, wait until ready
#   install only install what is missing (Java 17 + Maven, the store's jars, rabbitmq-server); start nothing
#   down    stop only what this script started (tracked by pid files under .local/)
#   status  report each component; exits 1 if any of them is not answering
#   env     print MONGO_URL=... and AMQP_URL=... lines, for `eval "$(tools/infra/infra.sh env)"`
#
# Environment:
#   MONGO_URL / AMQP_URL   use these instead; the matching component is skipped entirely
#   STORE_PORT             default 27017
#   STORE_BACKEND          h2 (default: persists to .local/store/<port>/orquestra.mv, so `npm start`
#                          keeps its data across restarts) or memory (faster scans, nothing kept;
#                          the test suite and the benchmark use it; docs/performance.md has figures)
#   STORE_HEAP             the store JVM's maximum heap (default 1g)
#   RABBITMQ_PORT          default 5672 (Erlang distribution port: RABBITMQ_DIST_PORT, default port+20000)
#
# Everything (binaries, data, logs, pid files) lives in <repo>/.local/, which is git-ignored.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
LOCAL="$ROOT/.local"

STORE_PORT="${STORE_PORT:-27017}"
STORE_BACKEND="${STORE_BACKEND:-h2}"
STORE_HEAP="${STORE_HEAP:-1g}"
STORE_SRC="$ROOT/tools/infra/mongo-java-server"
STORE_HOME="$LOCAL/mongo-java-server"
STORE_DIR="$LOCAL/store/$STORE_PORT"
STORE_PID="$STORE_DIR/store.pid"
STORE_LOG="$STORE_DIR/store.log"
STORE_BUILD_LOG="$STORE_HOME/build.log"

RABBITMQ_PORT="${RABBITMQ_PORT:-5672}"
RMQ_DIST_PORT="${RABBITMQ_DIST_PORT:-$((RABBITMQ_PORT + 20000))}"
RMQ_NODE="orquestra@localhost"
RMQ_DIR="$LOCAL/rabbitmq"
# The wrapper script's pid: SIGTERM to it makes RabbitMQ shut down gracefully.
RMQ_PID="$RMQ_DIR/rabbitmq.pid"
# Written by RabbitMQ itself (the Erlang VM's pid).
RMQ_BEAM_PID="$RMQ_DIR/beam.pid"
RMQ_OUT="$RMQ_DIR/startup.log"
RMQ_LOG="$RMQ_DIR/log/$RMQ_NODE.log"
# /usr/sbin/rabbitmq-server su's to the `rabbitmq` user when run as root, which could not write
# to .local/; the real scripts live here and run as any user.
RMQ_BIN_DIR="/usr/lib/rabbitmq/bin"

EFFECTIVE_MONGO_URL="${MONGO_URL:-mongodb://127.0.0.1:$STORE_PORT}"
EFFECTIVE_AMQP_URL="${AMQP_URL:-amqp://guest:guest@127.0.0.1:$RABBITMQ_PORT}"

log() { printf '[infra] %s\n' "$*" >&2; }
die() { printf '[infra] ERROR: %s\n' "$*" >&2; exit 1; }

# --- probes -------------------------------------------------------------------------------

port_open() { timeout 2 bash -c ": >/dev/tcp/127.0.0.1/$1" 2>/dev/null; }

node_has() { command -v node >/dev/null && node -e 'require.resolve(process.argv[1], { paths: [process.argv[2]] })' "$1" "$ROOT" 2>/dev/null; }

# A real driver ping: an open port alone could be anything.
mongo_answers() {
  local url="$1"
  if node_has mongodb; then
    timeout 10 node -e '
      const { MongoClient } = require(require.resolve("mongodb", { paths: [process.argv[1]] }));
      const client = new MongoClient(process.argv[2], { serverSelectionTimeoutMS: 2000, connectTimeoutMS: 2000 });
      client.db("admin").command({ ping: 1 })
        .then(() => client.close()).then(() => process.exit(0), () => process.exit(1));
    ' "$ROOT" "$url" >/dev/null 2>&1
  else
    # No driver (node_modules not installed yet): an open port is the best we can check.
    port_open "$STORE_PORT"
  fi
}

amqp_answers() {
  local url="$1"
  if node_has amqplib; then
    timeout 10 node -e '
      const amqp = require(require.resolve("amqplib", { paths: [process.argv[1]] }));
      amqp.connect(process.argv[2], { timeout: 2000 })
        .then((c) => c.close()).then(() => process.exit(0), () => process.exit(1));
    ' "$ROOT" "$url" >/dev/null 2>&1
  else
    # AMQP 0-9-1 handshake by hand: a broker answers the protocol header with a method frame (type 1).
    timeout 3 bash -c "exec 3<>/dev/tcp/127.0.0.1/$RABBITMQ_PORT; printf 'AMQP\x00\x00\x09\x01' >&3; head -c1 <&3 | od -An -tx1" 2>/dev/null | grep 01 >/dev/null
  fi
}

# Pid from a pid file, only if that process is alive and its command line contains $2
# (guards against a recycled pid belonging to something else).
live_pid() {
  local file="$1" needle="$2" pid
  [[ -f "$file" ]] || return 1
  pid="$(tr -dc '0-9' <"$file")"
  [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null || return 1
  # grep without -q: with pipefail, an early-exiting grep -q can SIGPIPE the writer and fail the check.
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -F -- "$needle" >/dev/null || return 1
  printf '%s' "$pid"
}

# Our processes, only when they serve the port asked for now.
store_pid_here() { live_pid "$STORE_PID" "OrquestraStore --port $STORE_PORT "; }
rmq_pid_here() {
  local pid
  pid="$(live_pid "$RMQ_PID" rabbitmq-server)" || return 1
  tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | grep -x "RABBITMQ_NODE_PORT=$RABBITMQ_PORT" >/dev/null || return 1
  printf '%s' "$pid"
}

# Wait until "$@" succeeds; fail early if the process behind $pid dies.
wait_until() {
  local seconds="$1" pid="$2"; shift 2
  local deadline=$((SECONDS + seconds))
  while ((SECONDS < deadline)); do
    "$@" && return 0
    kill -0 "$pid" 2>/dev/null || return 2
    sleep "${WAIT_INTERVAL:-1}"
  done
  return 1
}

# Our own store answers: its port first (a cheap check, polled often), then a real driver ping
# (a node process, started only once the port is open). A restart is seen within ~0.2 s.
own_store_answers() { port_open "$STORE_PORT" && mongo_answers "$1"; }

stop_pid() {
  local pid="$1" name="$2" i
  kill -TERM "$pid" 2>/dev/null || return 0
  for ((i = 0; i < 30; i++)); do
    kill -0 "$pid" 2>/dev/null || { log "$name stopped (pid $pid)"; return 0; }
    sleep 1
  done
  log "$name (pid $pid) ignored SIGTERM for 30 s; killing it"
  kill -KILL "$pid" 2>/dev/null || true
}

# --- the store: mongo-java-server ------------------------------------------------------

# apt-get install, as root or through passwordless sudo.
apt_install() {
  local sudo=()
  if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null && sudo -n true 2>/dev/null || die "$* is missing and installing it needs root; run: sudo apt-get install -y $*"
    sudo=(sudo -n)
  fi
  command -v apt-get >/dev/null || die "$* is missing and apt-get is not available to install it"
  log "installing $* with apt-get"
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y "$@" >/dev/null ||
    { "${sudo[@]}" apt-get update >/dev/null && DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y "$@" >/dev/null; } ||
    die "apt-get could not install $*"
}

java_ok() { command -v java >/dev/null && command -v javac >/dev/null && [[ "$(java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')" -ge 17 ]]; }

# What the built store depends on: a change to the pom or the launcher rebuilds it.
store_stamp() { cat "$STORE_SRC/pom.xml" "$STORE_SRC/OrquestraStore.java" | sha256sum | cut -d' ' -f1; }

ensure_store_build() {
  if [[ -f "$STORE_HOME/stamp" && "$(cat "$STORE_HOME/stamp")" == "$(store_stamp)" ]] && java_ok; then return 0; fi
  java_ok || apt_install openjdk-17-jdk-headless
  command -v mvn >/dev/null || apt_install maven
  mkdir -p "$STORE_HOME"
  : >"$STORE_BUILD_LOG"
  log "fetching mongo-java-server from Maven Central into $STORE_HOME/lib (log: $STORE_BUILD_LOG)"
  rm -rf "$STORE_HOME/lib" "$STORE_HOME/classes"
  mvn -B -q -f "$STORE_SRC/pom.xml" dependency:copy-dependencies -DoutputDirectory="$STORE_HOME/lib" >>"$STORE_BUILD_LOG" 2>&1 ||
    die "Maven could not fetch mongo-java-server; see $STORE_BUILD_LOG"
  javac -d "$STORE_HOME/classes" -cp "$STORE_HOME/lib/*" "$STORE_SRC/OrquestraStore.java" >>"$STORE_BUILD_LOG" 2>&1 ||
    die "compiling the store launcher failed; see $STORE_BUILD_LOG"
  store_stamp >"$STORE_HOME/stamp"
  log "store built in $STORE_HOME"
}

store_up() {
  if [[ -n "${MONGO_URL:-}" ]]; then
    log "MONGO_URL is set; not starting the local store (using $MONGO_URL)"
    return 0
  fi
  local pid
  if own_store_answers "$EFFECTIVE_MONGO_URL"; then
    if pid="$(store_pid_here)"; then
      log "store already running (pid $pid) on 127.0.0.1:$STORE_PORT; reusing it"
    else
      log "a MongoDB-wire server (not started by this script) already answers on 127.0.0.1:$STORE_PORT; reusing it"
    fi
    return 0
  fi
  if pid="$(store_pid_here)"; then
    log "store pid $pid exists but does not answer yet; waiting for it"
  else
    port_open "$STORE_PORT" &&
      die "port $STORE_PORT is taken by something that does not answer a MongoDB ping; free it, or set STORE_PORT or MONGO_URL"
    ensure_store_build
    mkdir -p "$STORE_DIR"
    local backend_args=(--backend "$STORE_BACKEND")
    case "$STORE_BACKEND" in
      h2) backend_args+=(--file "$STORE_DIR/orquestra.mv") ;;
      memory) ;;
      *) die "STORE_BACKEND must be h2 or memory (got '$STORE_BACKEND')" ;;
    esac
    log "starting mongo-java-server ($STORE_BACKEND backend) on 127.0.0.1:$STORE_PORT (log: $STORE_LOG)"
    printf '=== %s: started by infra.sh ===\n' "$(date -Is)" >>"$STORE_LOG"
    # 9>&- : the child must not inherit the lock, or it would hold it forever.
    # SerialGC and a bounded heap keep the JVM's resident memory close to what it stores.
    setsid nohup java -Xms64m "-Xmx$STORE_HEAP" -XX:+UseSerialGC -XX:TieredStopAtLevel=4 \
      -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
      -cp "$STORE_HOME/lib/*:$STORE_HOME/classes" \
      OrquestraStore --port "$STORE_PORT" --host 127.0.0.1 "${backend_args[@]}" \
      >>"$STORE_LOG" 2>&1 </dev/null 9>&- &
    pid=$!
    echo "$pid" >"$STORE_PID"
  fi
  local rc=0
  WAIT_INTERVAL=0.2 wait_until 60 "$pid" own_store_answers "$EFFECTIVE_MONGO_URL" || rc=$?
  case $rc in
    0) log "store ready at $EFFECTIVE_MONGO_URL (pid $pid)" ;;
    2) rm -f "$STORE_PID"; die "the store exited during startup; read $STORE_LOG" ;;
    *) die "the store (pid $pid) did not answer a MongoDB ping on 127.0.0.1:$STORE_PORT within 60 s; read $STORE_LOG" ;;
  esac
}

# --- RabbitMQ -----------------------------------------------------------------------------

install_rabbitmq() {
  local sudo=()
  if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null && sudo -n true 2>/dev/null ||
      die "rabbitmq-server is not installed and installing it needs root; run: sudo apt-get install -y rabbitmq-server"
    sudo=(sudo -n)
  fi
  command -v apt-get >/dev/null || die "rabbitmq-server is not installed and apt-get is not available to install it"
  log "installing rabbitmq-server with apt-get"
  # Keep the package's init script from starting a system-wide broker on the same port; this
  # script runs its own, user-owned node. Only done when no policy already exists.
  local policy=/usr/sbin/policy-rc.d added_policy=0
  if [[ ! -e $policy ]]; then
    printf '#!/bin/sh\nexit 101\n' | "${sudo[@]}" tee "$policy" >/dev/null && "${sudo[@]}" chmod +x "$policy" && added_policy=1
  fi
  local ok=1
  if ! apt-cache show rabbitmq-server >/dev/null 2>&1 || [[ -z "$(apt-cache policy rabbitmq-server | sed -n 's/^ *Candidate: *//p' | grep -v none)" ]]; then
    "${sudo[@]}" apt-get update || ok=0
  fi
  ((ok)) && DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y rabbitmq-server || ok=0
  ((added_policy)) && "${sudo[@]}" rm -f "$policy"
  ((ok)) || die "apt-get could not install rabbitmq-server (see the apt output above)"
  [[ -x "$RMQ_BIN_DIR/rabbitmq-server" ]] || die "rabbitmq-server was installed but $RMQ_BIN_DIR/rabbitmq-server is missing"
}

# Every RabbitMQ command runs with the same private environment: data, logs, config and the
# Erlang cookie (which Erlang keeps in $HOME) all stay under .local/rabbitmq.
rmq_env() {
  RMQ_ENV=(
    HOME="$RMQ_DIR/home"
    RABBITMQ_NODENAME="$RMQ_NODE"
    RABBITMQ_NODE_IP_ADDRESS=127.0.0.1
    RABBITMQ_NODE_PORT="$RABBITMQ_PORT"
    RABBITMQ_DIST_PORT="$RMQ_DIST_PORT"
    RABBITMQ_MNESIA_BASE="$RMQ_DIR/mnesia"
    RABBITMQ_LOG_BASE="$RMQ_DIR/log"
    RABBITMQ_PID_FILE="$RMQ_BEAM_PID"
    RABBITMQ_CONFIG_FILE="$RMQ_DIR/rabbitmq.conf"
    RABBITMQ_ENABLED_PLUGINS_FILE="$RMQ_DIR/enabled_plugins"
    RABBITMQ_CONF_ENV_FILE="$RMQ_DIR/rabbitmq-env.conf"
    # Keep Erlang distribution and epmd off the network.
    RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS="-kernel inet_dist_use_interface {127,0,0,1}"
    ERL_EPMD_ADDRESS=127.0.0.1
  )
}

rabbitmq_up() {
  if [[ -n "${AMQP_URL:-}" ]]; then
    log "AMQP_URL is set; not starting RabbitMQ (using $AMQP_URL)"
    return 0
  fi
  local pid
  if amqp_answers "$EFFECTIVE_AMQP_URL"; then
    if pid="$(rmq_pid_here)"; then
      log "RabbitMQ already running (pid $pid) on 127.0.0.1:$RABBITMQ_PORT; reusing it"
    else
      log "an AMQP broker (not started by this script) already answers on 127.0.0.1:$RABBITMQ_PORT; reusing it"
    fi
    return 0
  fi
  if pid="$(rmq_pid_here)"; then
    log "RabbitMQ pid $pid exists but does not answer yet; waiting for it"
  elif pid="$(live_pid "$RMQ_PID" rabbitmq-server)"; then
    die "RabbitMQ node $RMQ_NODE started by this script (pid $pid) serves another port, not $RABBITMQ_PORT; run 'tools/infra/infra.sh down' first"
  else
    port_open "$RABBITMQ_PORT" &&
      die "port $RABBITMQ_PORT is taken by something that does not accept AMQP as guest; free it, or set RABBITMQ_PORT or AMQP_URL"
    [[ -x "$RMQ_BIN_DIR/rabbitmq-server" ]] || install_rabbitmq
    mkdir -p "$RMQ_DIR/home" "$RMQ_DIR/mnesia" "$RMQ_DIR/log"
    # Empty env file: ignore /etc/rabbitmq/rabbitmq-env.conf. No plugins: management is not needed.
    : >"$RMQ_DIR/rabbitmq-env.conf"
    printf '[].\n' >"$RMQ_DIR/enabled_plugins"
    printf '%s\n' 'loopback_users.guest = true' 'log.console = false' >"$RMQ_DIR/rabbitmq.conf"
    log "starting RabbitMQ node $RMQ_NODE on 127.0.0.1:$RABBITMQ_PORT (log: $RMQ_LOG)"
    printf '=== %s: started by infra.sh ===\n' "$(date -Is)" >>"$RMQ_OUT"
    # Foreground mode in the background (not -detached): the wrapper's pid is known, and SIGTERM
    # to it makes the broker stop gracefully.
    rmq_env
    setsid nohup env "${RMQ_ENV[@]}" "$RMQ_BIN_DIR/rabbitmq-server" >>"$RMQ_OUT" 2>&1 </dev/null 9>&- &
    pid=$!
    echo "$pid" >"$RMQ_PID"
  fi
  local rc=0
  wait_until 60 "$pid" amqp_answers "$EFFECTIVE_AMQP_URL" || rc=$?
  case $rc in
    0) log "RabbitMQ ready at ${EFFECTIVE_AMQP_URL/guest:guest@/guest:***@} (pid $pid)" ;;
    2) rm -f "$RMQ_PID"; die "RabbitMQ exited during startup; read $RMQ_OUT and $RMQ_LOG" ;;
    *) die "RabbitMQ (pid $pid) did not accept an AMQP connection on 127.0.0.1:$RABBITMQ_PORT within 60 s; read $RMQ_LOG and $RMQ_OUT" ;;
  esac
}

# --- subcommands --------------------------------------------------------------------------

lock() {
  mkdir -p "$LOCAL"
  command -v flock >/dev/null || { log "flock not found; running without a lock"; return 0; }
  # Parallel test workers may all call `up` at once; only one may start things.
  exec 9>"$LOCAL/infra.lock"
  flock -w 600 9 || die "timed out waiting for another infra.sh run (lock: $LOCAL/infra.lock)"
}

# The stacks' gRPC ports (50051–50055, plus the test stacks' offsets up to +6000) lie inside
# Linux's ephemeral range (32768–60999): any outgoing connection may take one as its local port
# first, and a service starting later fails with EADDRINUSE. Reserve them from automatic
# assignment (explicit binds still work). Best effort: needs root; says so otherwise.
reserve_stack_ports() {
  local file=/proc/sys/net/ipv4/ip_local_reserved_ports want=50000-56999
  [[ -r $file ]] || return 0
  local current
  current="$(cat "$file")"
  [[ ",$current," == *",$want,"* ]] && return 0
  if [[ -w $file ]]; then
    echo "${current:+$current,}$want" >"$file" 2>/dev/null && log "reserved ports $want from the ephemeral range (stacks' gRPC ports)" && return 0
  fi
  log "could not reserve ports $want from the ephemeral range (not root?): a stack may rarely fail with EADDRINUSE"
}

cmd_up() {
  lock
  reserve_stack_ports
  store_up
  rabbitmq_up
}

cmd_install() {
  lock
  if [[ -n "${MONGO_URL:-}" ]]; then log "MONGO_URL is set; the local store is not needed"
  else ensure_store_build && log "store: $STORE_HOME"; fi
  if [[ -n "${AMQP_URL:-}" ]]; then log "AMQP_URL is set; RabbitMQ not needed"
  else
    [[ -x "$RMQ_BIN_DIR/rabbitmq-server" ]] || install_rabbitmq
    log "RabbitMQ: $RMQ_BIN_DIR/rabbitmq-server"
  fi
}

cmd_down() {
  lock
  local pid beam
  local pidfile
  # Every store this script started, whatever its port (the dev store, the tests', the bench's).
  for pidfile in "$LOCAL"/store/*/store.pid; do
    [[ -f "$pidfile" ]] || continue
    if pid="$(live_pid "$pidfile" OrquestraStore)"; then stop_pid "$pid" "store ($(basename "$(dirname "$pidfile")"))"; fi
    rm -f "$pidfile"
  done
  beam="$(live_pid "$RMQ_BEAM_PID" "$RMQ_DIR/home" || true)"
  if pid="$(live_pid "$RMQ_PID" rabbitmq-server)"; then
    stop_pid "$pid" RabbitMQ
    [[ -n "$beam" ]] && kill -0 "$beam" 2>/dev/null && stop_pid "$beam" "RabbitMQ VM"
  elif [[ -n "$beam" ]]; then
    stop_pid "$beam" RabbitMQ
  else
    log "RabbitMQ: nothing started by this script is running"
  fi
  rm -f "$RMQ_PID" "$RMQ_BEAM_PID"
}

cmd_status() {
  local bad=0 pid owner
  if [[ -n "${MONGO_URL:-}" ]]; then owner="external (MONGO_URL)"
  elif pid="$(store_pid_here)"; then owner="mongo-java-server pid $pid, started by infra.sh"
  else owner="not started by infra.sh"; fi
  if mongo_answers "$EFFECTIVE_MONGO_URL"; then log "mongo:    up   $EFFECTIVE_MONGO_URL ($owner)"
  else log "mongo:    DOWN $EFFECTIVE_MONGO_URL (log: $STORE_LOG)"; bad=1; fi

  if [[ -n "${AMQP_URL:-}" ]]; then owner="external (AMQP_URL)"
  elif pid="$(rmq_pid_here)"; then owner="RabbitMQ node $RMQ_NODE, pid $pid, started by infra.sh"
  else owner="not started by infra.sh"; fi
  local shown="${EFFECTIVE_AMQP_URL/guest:guest@/guest:***@}"
  if amqp_answers "$EFFECTIVE_AMQP_URL"; then log "rabbitmq: up   $shown ($owner)"
  else log "rabbitmq: DOWN $shown (log: $RMQ_LOG)"; bad=1; fi
  return $bad
}

# Plain KEY=value when safe, else single-quoted, so the output is valid for `eval` and dotenv.
print_var() {
  if [[ "$2" =~ ^[A-Za-z0-9_:/@.?=,%+-]*$ ]]; then printf '%s=%s\n' "$1" "$2"
  else printf "%s='%s'\n" "$1" "${2//\'/\'\\\'\'}"; fi
}

cmd_env() {
  print_var MONGO_URL "$EFFECTIVE_MONGO_URL"
  print_var AMQP_URL "$EFFECTIVE_AMQP_URL"
}

case "${1:-up}" in
  up) cmd_up ;;
  down) cmd_down ;;
  status) cmd_status ;;
  env) cmd_env ;;
  install) cmd_install ;;
  -h | --help | help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' ;;
  *) die "unknown subcommand '$1' (expected up, down, status, env or install)" ;;
esac
