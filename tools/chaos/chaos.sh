#!/usr/bin/env bash
# `npm run chaos [-- --short]`: faults under load on a stack with two replicas of every service
# (tools/chaos/src/main.ts; docs/reliability.md). Never part of CI's default run; `--short` (one
# kill of a payments replica and one of a providers replica, about a minute) is npm test's step.
#
# The full run restarts the store process and the broker, so it gets its own of each, never the
# shared ones: a store on STORE_PORT (default 27021) with the persistent H2 backend (the memory
# backend would forget everything on restart), and a private RabbitMQ node on 5672 + port offset.
# The short run restarts neither and uses the tests' store and broker (tools/infra/infra.sh).
#
#   --skip-build   do not run tools/build/build-all.sh first   (env CHAOS_SKIP_BUILD=1)
#   --only <text>  only the faults whose name contains <text> (e.g. `--only store`): a study of one
#   ORQUESTRA_REPLICAS=payments=2,providers=2  replicas other than two of every service
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"

short=0
skip_build="${CHAOS_SKIP_BUILD:-0}"
args=()
for arg in "$@"; do
  case "$arg" in
    --short) short=1; args+=("$arg") ;;
    --skip-build) skip_build=1 ;;
    *) args+=("$arg") ;;
  esac
done
OFFSET="${CHAOS_PORT_OFFSET:-6000}"
args+=(--port-offset "$OFFSET")

bash tools/infra/certs.sh >/dev/null
[[ "$skip_build" == 1 ]] || bash tools/build/build-all.sh >/dev/null
node tools/build/build-tool.mjs tools/chaos/src/main.ts dist/tools/chaos/main.js >/dev/null

if [[ "$short" == 1 ]]; then
  export STORE_BACKEND="${STORE_BACKEND:-memory}" STORE_PORT="${STORE_PORT:-27018}"
  bash tools/infra/infra.sh up >/dev/null
  eval "$(bash tools/infra/infra.sh env)"
  export MONGO_URL AMQP_URL
  exec node --enable-source-maps dist/tools/chaos/main.js "${args[@]}"
fi

# --- a private RabbitMQ node (killed and started again by the run) --------------------------
[[ -x /usr/lib/rabbitmq/bin/rabbitmq-server ]] || bash tools/infra/infra.sh install >/dev/null
source tools/infra/private-broker.sh
private_broker_prepare orquestra_chaos "$OFFSET" "$ROOT/.local/rabbitmq-chaos-$OFFSET"
AMQP_URL="amqp://guest:guest@127.0.0.1:$PORT"

# --- a private store with the persistent backend (stopped and started again by the run) ------
STORE_PORT="${STORE_PORT:-27021}"
# MONGO_URL emptied: infra.sh starts no store when it is set, and the run has it set.
STORE_START="MONGO_URL= STORE_PORT=$STORE_PORT STORE_BACKEND=h2 AMQP_URL=$AMQP_URL bash $ROOT/tools/infra/infra.sh up >/dev/null 2>&1"
STORE_PIDFILE="$ROOT/.local/store/$STORE_PORT/store.pid"

stop_private_store() {
  [[ -f "$STORE_PIDFILE" ]] || return 0
  local pid
  pid="$(tr -dc '0-9' <"$STORE_PIDFILE")"
  if [[ -n "$pid" && -r "/proc/$pid/cmdline" ]] && tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -F -- "OrquestraStore --port $STORE_PORT " >/dev/null; then
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  fi
}

cleanup() {
  echo "[chaos] stopping the private broker $NODE and the store on $STORE_PORT"
  private_broker_stop
  stop_private_store
}
trap cleanup EXIT

private_broker_start chaos
# A fresh store file per run: the H2 backend opens every database of its file when it starts, so a
# file holding the databases of every earlier run (hundreds of MB) made the store's restart take
# 40 s and more. The last run's file stays until the next run, for a post-mortem.
stop_private_store
rm -f "$ROOT/.local/store/$STORE_PORT/orquestra.mv"
echo "[chaos] starting the private store (H2 backend, a new file) on 127.0.0.1:$STORE_PORT"
bash -c "$STORE_START"

MONGO_URL="mongodb://127.0.0.1:$STORE_PORT" AMQP_URL="$AMQP_URL" \
  CHAOS_STORE_PIDFILE="$STORE_PIDFILE" CHAOS_STORE_START="$STORE_START" \
  CHAOS_BROKER_PIDFILE="$DIR/beam.pid" CHAOS_BROKER_START="$BROKER_START" \
  node --enable-source-maps dist/tools/chaos/main.js "${args[@]}"
