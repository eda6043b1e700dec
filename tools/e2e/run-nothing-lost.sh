#!/usr/bin/env bash
# Runs tools/e2e/src/nothing-lost.e2e.spec.ts against a PRIVATE RabbitMQ node, so that stopping the
# broker mid-test disturbs no other stack or test sharing the infra.sh node. The store (the tests' local
# store or MONGO_URL) is shared as usual (each stack has its own databases).
#
#   TEST_STACK_PORT_OFFSET=5000 E2E_STATE_DIR=.local/e2e-events bash tools/e2e/run-nothing-lost.sh
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
OFFSET="${TEST_STACK_PORT_OFFSET:-1000}"
export TEST_STACK_PORT_OFFSET="$OFFSET"
export E2E_STATE_DIR="${E2E_STATE_DIR:-$ROOT/.local/e2e-nothing-lost}"
PORT=$((5672 + OFFSET))
DIST=$((PORT + 20000))
NODE="orquestra_e2e_${OFFSET}@localhost"
# Outside E2E_STATE_DIR: the suite's global setup empties that directory.
DIR="$ROOT/.local/rabbitmq-e2e-$OFFSET"
BIN=/usr/lib/rabbitmq/bin

export STORE_BACKEND="${STORE_BACKEND:-memory}" STORE_PORT="${STORE_PORT:-27018}"
bash tools/infra/infra.sh up >/dev/null
if [[ -z "${MONGO_URL:-}" ]]; then
  MONGO_URL="$(bash tools/infra/infra.sh env | sed -n 's/^MONGO_URL=//p')"
fi
export MONGO_URL

mkdir -p "$DIR/home" "$DIR/mnesia" "$DIR/log"
: >"$DIR/rabbitmq-env.conf"
printf '[].\n' >"$DIR/enabled_plugins"
printf '%s\n' 'loopback_users.guest = true' 'log.console = false' >"$DIR/rabbitmq.conf"
RMQ_ENV=(
  HOME="$DIR/home" RABBITMQ_NODENAME="$NODE" RABBITMQ_NODE_IP_ADDRESS=127.0.0.1 RABBITMQ_NODE_PORT="$PORT"
  RABBITMQ_DIST_PORT="$DIST" RABBITMQ_MNESIA_BASE="$DIR/mnesia" RABBITMQ_LOG_BASE="$DIR/log"
  RABBITMQ_PID_FILE="$DIR/beam.pid" RABBITMQ_CONFIG_FILE="$DIR/rabbitmq.conf"
  RABBITMQ_ENABLED_PLUGINS_FILE="$DIR/enabled_plugins" RABBITMQ_CONF_ENV_FILE="$DIR/rabbitmq-env.conf"
  RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS="-kernel inet_dist_use_interface {127,0,0,1}" ERL_EPMD_ADDRESS=127.0.0.1
)
[[ -x "$BIN/rabbitmq-server" ]] || {
  echo "[nothing-lost] $BIN/rabbitmq-server is missing: this suite runs a private node of Debian's rabbitmq-server (apt-get install -y rabbitmq-server)" >&2
  exit 1
}
# The suite kills this node with SIGKILL mid-traffic and starts it again with this script.
START="$DIR/start.sh"
{
  echo '#!/usr/bin/env bash'
  printf 'setsid nohup env'
  printf ' %q' "${RMQ_ENV[@]}" "$BIN/rabbitmq-server"
  printf ' >>%q 2>&1 </dev/null &\n' "$DIR/startup.log"
} >"$START"
chmod +x "$START"
echo "[nothing-lost] starting private RabbitMQ node $NODE on 127.0.0.1:$PORT"
bash "$START"
stop_node() {
  echo "[nothing-lost] stopping $NODE"
  env "${RMQ_ENV[@]}" "$BIN/rabbitmqctl" -n "$NODE" stop >/dev/null 2>&1 || true
}
trap stop_node EXIT
ready=0
for _ in $(seq 1 120); do
  if env "${RMQ_ENV[@]}" "$BIN/rabbitmqctl" -n "$NODE" await_startup >/dev/null 2>&1; then ready=1; break; fi
  sleep 1
done
((ready)) || { echo "[nothing-lost] RabbitMQ node $NODE did not start within 120 s; see $DIR/startup.log" >&2; exit 1; }

E2E_NOTHING_LOST=1 AMQP_URL="amqp://guest:guest@127.0.0.1:$PORT" E2E_RABBITMQ_NODE="$NODE" E2E_RABBITMQ_HOME="$DIR/home" \
  E2E_RABBITMQ_START="$START" E2E_RABBITMQ_CTL="$BIN/rabbitmqctl" \
  npx jest -c tools/e2e/jest.config.js tools/e2e/src/nothing-lost.e2e.spec.ts "$@"
