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

export STORE_BACKEND="${STORE_BACKEND:-memory}" STORE_PORT="${STORE_PORT:-27018}"
bash tools/infra/infra.sh up >/dev/null
if [[ -z "${MONGO_URL:-}" ]]; then
  MONGO_URL="$(bash tools/infra/infra.sh env | sed -n 's/^MONGO_URL=//p')"
fi
export MONGO_URL

[[ -x /usr/lib/rabbitmq/bin/rabbitmq-server ]] || {
  echo "[nothing-lost] /usr/lib/rabbitmq/bin/rabbitmq-server is missing: this suite runs a private node of Debian's rabbitmq-server (apt-get install -y rabbitmq-server)" >&2
  exit 1
}
# The suite kills this node with SIGKILL mid-traffic and starts it again with its start script.
source tools/infra/private-broker.sh
# Outside E2E_STATE_DIR: the suite's global setup empties that directory.
private_broker_prepare orquestra_e2e "$OFFSET" "$ROOT/.local/rabbitmq-e2e-$OFFSET"
stop_node() {
  echo "[nothing-lost] stopping $NODE"
  private_broker_stop
}
trap stop_node EXIT
private_broker_start nothing-lost

E2E_NOTHING_LOST=1 AMQP_URL="amqp://guest:guest@127.0.0.1:$PORT" E2E_RABBITMQ_NODE="$NODE" E2E_RABBITMQ_HOME="$DIR/home" \
  E2E_RABBITMQ_START="$BROKER_START" E2E_RABBITMQ_CTL="$BIN/rabbitmqctl" \
  npx jest -c tools/e2e/jest.config.js tools/e2e/src/nothing-lost.e2e.spec.ts "$@"
