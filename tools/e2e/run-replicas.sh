#!/usr/bin/env bash
# Runs tools/e2e/src/replicas.e2e.spec.ts against a stack of its own with TWO replicas of every
# service (ORQUESTRA_REPLICAS=2: two gateways behind the launcher's HTTP balancer, every gRPC client
# given both replicas of each service it calls; tools/stack/src/replicas.ts). Its ports are offset
# by 5000 and its databases prefixed of their own; store and broker are the tests' usual ones.
#
#   bash tools/e2e/run-replicas.sh            (npm test runs it as its own step)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
export TEST_STACK_PORT_OFFSET="${TEST_STACK_PORT_OFFSET:-5000}"
export E2E_STATE_DIR="${E2E_STATE_DIR:-$ROOT/.local/e2e-replicas}"
export ORQUESTRA_REPLICAS="${ORQUESTRA_REPLICAS:-2}"
# Twice the processes of the usual stack: more time to become ready on a small machine.
export TEST_STACK_READY_TIMEOUT_MS="${TEST_STACK_READY_TIMEOUT_MS:-300000}"
export E2E_STACK_START_TIMEOUT_MS="${E2E_STACK_START_TIMEOUT_MS:-360000}"
export STORE_BACKEND="${STORE_BACKEND:-memory}" STORE_PORT="${STORE_PORT:-27018}"
bash tools/infra/infra.sh up >/dev/null
eval "$(bash tools/infra/infra.sh env)"
export MONGO_URL AMQP_URL
E2E_REPLICAS=1 npx jest -c tools/e2e/jest.config.js tools/e2e/src/replicas.e2e.spec.ts "$@"
