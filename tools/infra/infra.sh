#!/usr/bin/env bash
# Local infrastructure for Orquestra without Docker:
#   - FerretDB v1.24.0 (MongoDB wire protocol, SQLite backend) as the MongoDB-compatible store
#   - RabbitMQ from Debian's rabbitmq-server package, run as a plain user process
#
# Usage: tools/infra/infra.sh [up|down|status|env|install]      (default: up)
#
#   up      install what is missing, start what is not already answering, wait until ready
#   install only install what is missing (FerretDB binary, rabbitmq-server package); start nothing
#   down    stop only what this script started (tracked by pid files under .local/)
#   status  report each component; exits 1 if any of them is not answering
#   env     print MONGO_URL=... and AMQP_URL=... lines, for `eval "$(tools/infra/infra.sh env)"`
#
# Environment:
#   MONGO_URL / AMQP_URL   use these instead; the matching component is skipped entirely
#   FERRETDB_PORT          default 27017
#   RABBITMQ_PORT          default 5672 (Erlang distribution port: RABBITMQ_DIST_PORT, default port+20000)
#   FERRETDB_BIN           where the ferretdb binary lives/is built (default .local/bin/ferretdb)
#
# Everything (binaries, data, logs, pid files) lives in <repo>/.local/, which is git-ignored.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
LOCAL="$ROOT/.local"

FERRETDB_VERSION="v1.24.0"
FERRETDB_MODULE="github.com/FerretDB/FerretDB"
FERRETDB_PORT="${FERRETDB_PORT:-27017}"
FERRETDB_BIN="${FERRETDB_BIN:-$LOCAL/bin/ferretdb}"
FDB_DIR="$LOCAL/ferretdb"
FDB_PID="$FDB_DIR/ferretdb.pid"
FDB_LOG="$FDB_DIR/ferretdb.log"
FDB_BUILD_LOG="$FDB_DIR/build.log"

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

EFFECTIVE_MONGO_URL="${MONGO_URL:-mongodb://127.0.0.1:$FERRETDB_PORT}"
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
    port_open "$FERRETDB_PORT"
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
fdb_pid_here() { live_pid "$FDB_PID" "--listen-addr=127.0.0.1:$FERRETDB_PORT"; }
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
    sleep 1
  done
  return 1
}

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

# --- FerretDB -----------------------------------------------------------------------------

ferretdb_ok() {
  local out
  [[ -x "$1" ]] && out="$("$1" --version 2>/dev/null)" || return 1
  grep -iE "^version: *$FERRETDB_VERSION\$" >/dev/null <<<"$out"
}

build_ferretdb() {
  local out="$1" work modcache src
  command -v go >/dev/null ||
    die "the Go toolchain (go >= 1.22) is missing; it is needed to build FerretDB $FERRETDB_VERSION. Install Go (https://go.dev/dl) or put a ferretdb $FERRETDB_VERSION binary at $out"
  mkdir -p "$(dirname "$out")" "$FDB_DIR" "$LOCAL/build"
  : >"$FDB_BUILD_LOG"
  work="$(mktemp -d "$LOCAL/build/ferretdb.XXXXXX")"

  log "building FerretDB $FERRETDB_VERSION into $out (log: $FDB_BUILD_LOG)"
  if GOBIN="$work/gobin" go install "$FERRETDB_MODULE/cmd/ferretdb@$FERRETDB_VERSION" >>"$FDB_BUILD_LOG" 2>&1 &&
    ferretdb_ok "$work/gobin/ferretdb"; then
    mv "$work/gobin/ferretdb" "$out"
    rm -rf "$work"; rmdir "$LOCAL/build" 2>/dev/null || true
    return 0
  fi
  # The module proxy refuses FerretDB's version list (403), which `go install` needs; and a
  # plain module build lacks build/version/version.txt, so the binary would panic at start.
  log "'go install ...@$FERRETDB_VERSION' did not produce a working binary ($(grep -m1 -oE '403 Forbidden|Invalid build/version[^ ]*' "$FDB_BUILD_LOG" || echo "see $FDB_BUILD_LOG")); building from the module source instead (~1.5 min)"

  (cd "$work" && go mod init x && go mod download -json "$FERRETDB_MODULE@$FERRETDB_VERSION") >"$work/download.json" 2>>"$FDB_BUILD_LOG" ||
    die "could not download Go module $FERRETDB_MODULE@$FERRETDB_VERSION from the Go module proxy; see $FDB_BUILD_LOG"
  modcache="$(sed -n 's/^[[:space:]]*"Dir": "\(.*\)",*$/\1/p' "$work/download.json")"
  [[ -d "$modcache" ]] || modcache="$(go env GOMODCACHE)/github.com/!ferret!d!b/!ferret!d!b@$FERRETDB_VERSION"
  [[ -d "$modcache" ]] || die "downloaded FerretDB module source not found (looked at $modcache); see $work/download.json"

  src="$work/src"
  cp -R "$modcache" "$src"
  chmod -R u+w "$src"
  printf '%s\n' "$FERRETDB_VERSION" >"$src/build/version/version.txt"
  (cd "$src" && go build -buildvcs=false -trimpath -o "$out.tmp" ./cmd/ferretdb) >>"$FDB_BUILD_LOG" 2>&1 ||
    die "building FerretDB from source failed; see $FDB_BUILD_LOG (sources kept in $src)"
  ferretdb_ok "$out.tmp" || die "the freshly built $out.tmp does not report $FERRETDB_VERSION; see $FDB_BUILD_LOG"
  mv "$out.tmp" "$out"
  rm -rf "$work"; rmdir "$LOCAL/build" 2>/dev/null || true
  log "built $out"
}

ensure_ferretdb_binary() {
  if ferretdb_ok "$FERRETDB_BIN"; then return 0; fi
  [[ -e "$FERRETDB_BIN" ]] && log "$FERRETDB_BIN is not FerretDB $FERRETDB_VERSION; rebuilding"
  build_ferretdb "$FERRETDB_BIN"
}

ferretdb_up() {
  if [[ -n "${MONGO_URL:-}" ]]; then
    log "MONGO_URL is set; not starting FerretDB (using $MONGO_URL)"
    return 0
  fi
  local pid
  if mongo_answers "$EFFECTIVE_MONGO_URL"; then
    if pid="$(fdb_pid_here)"; then
      log "FerretDB already running (pid $pid) on 127.0.0.1:$FERRETDB_PORT; reusing it"
    else
      log "a MongoDB-compatible server (not started by this script) already answers on 127.0.0.1:$FERRETDB_PORT; reusing it"
    fi
    return 0
  fi
  if pid="$(fdb_pid_here)"; then
    log "FerretDB pid $pid exists but does not answer yet; waiting for it"
  elif pid="$(live_pid "$FDB_PID" ferretdb)"; then
    die "FerretDB started by this script (pid $pid) serves another port, not $FERRETDB_PORT; run 'tools/infra/infra.sh down' first"
  else
    port_open "$FERRETDB_PORT" &&
      die "port $FERRETDB_PORT is taken by something that does not answer a MongoDB ping; free it, or set FERRETDB_PORT or MONGO_URL"
    ensure_ferretdb_binary
    mkdir -p "$FDB_DIR/data" "$FDB_DIR/state"
    log "starting FerretDB $FERRETDB_VERSION on 127.0.0.1:$FERRETDB_PORT (log: $FDB_LOG)"
    printf '=== %s: started by infra.sh ===\n' "$(date -Is)" >>"$FDB_LOG"
    # 9>&- : the child must not inherit the lock, or it would hold it forever.
    # --log-level=error: at warn, FerretDB logs a 20-line dump for every driver connection close
    # (the Node driver's endSessions is unsupported), which would flood the log during tests.
    setsid nohup "$FERRETDB_BIN" \
      --handler=sqlite \
      --sqlite-url="file:$FDB_DIR/data/" \
      --listen-addr="127.0.0.1:$FERRETDB_PORT" \
      --state-dir="$FDB_DIR/state" \
      --telemetry=disable \
      --log-level=error \
      --debug-addr=- \
      >>"$FDB_LOG" 2>&1 </dev/null 9>&- &
    pid=$!
    echo "$pid" >"$FDB_PID"
  fi
  local rc=0
  wait_until 30 "$pid" mongo_answers "$EFFECTIVE_MONGO_URL" || rc=$?
  case $rc in
    0) log "FerretDB ready at $EFFECTIVE_MONGO_URL (pid $pid)" ;;
    2) rm -f "$FDB_PID"; die "FerretDB exited during startup; read $FDB_LOG" ;;
    *) die "FerretDB (pid $pid) did not answer a MongoDB ping on 127.0.0.1:$FERRETDB_PORT within 30 s; read $FDB_LOG" ;;
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
  ferretdb_up
  rabbitmq_up
}

cmd_install() {
  lock
  if [[ -n "${MONGO_URL:-}" ]]; then log "MONGO_URL is set; FerretDB not needed"
  else ensure_ferretdb_binary && log "FerretDB $FERRETDB_VERSION: $FERRETDB_BIN"; fi
  if [[ -n "${AMQP_URL:-}" ]]; then log "AMQP_URL is set; RabbitMQ not needed"
  else
    [[ -x "$RMQ_BIN_DIR/rabbitmq-server" ]] || install_rabbitmq
    log "RabbitMQ: $RMQ_BIN_DIR/rabbitmq-server"
  fi
}

cmd_down() {
  lock
  local pid beam
  if pid="$(live_pid "$FDB_PID" ferretdb)"; then
    stop_pid "$pid" FerretDB
  else
    log "FerretDB: nothing started by this script is running"
  fi
  rm -f "$FDB_PID"
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
  elif pid="$(fdb_pid_here)"; then owner="FerretDB pid $pid, started by infra.sh"
  else owner="not started by infra.sh"; fi
  if mongo_answers "$EFFECTIVE_MONGO_URL"; then log "mongo:    up   $EFFECTIVE_MONGO_URL ($owner)"
  else log "mongo:    DOWN $EFFECTIVE_MONGO_URL (log: $FDB_LOG)"; bad=1; fi

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
