#!/usr/bin/env bash
# The one command that runs every test on a fresh machine (`npm test`; CI runs exactly this):
# installs dependencies, provisions the MongoDB-wire store and RabbitMQ (unless MONGO_URL/AMQP_URL
# are set), builds, type-checks, lints, runs unit + integration tests, then the end-to-end suite
# against the whole stack started as processes.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
# Node.js 24 LTS (tools/setup/node-version) first on PATH for everything below, the stacks' processes included.
source tools/setup/node-env.sh
started=$(date +%s)
step() { echo; echo "==> $* ($(( $(date +%s) - started ))s)"; }

step "dependencies"
bash tools/setup/ensure-deps.sh
step "local infrastructure"
# The tests' own store: mongo-java-server's memory backend on its own port (faster scans than the
# persistent H2 backend `npm start` uses, and nothing of a developer's data is touched).
export STORE_BACKEND=memory STORE_PORT=27018
bash tools/infra/infra.sh up
eval "$(bash tools/infra/infra.sh env)"
export MONGO_URL AMQP_URL
bash tools/infra/certs.sh >/dev/null
step "build"
bash tools/build/build-all.sh
step "type-check"
for p in libs/platform libs/contracts libs/sdk libs/cli services/accounts services/gateway services/payments services/providers services/routing services/notifications services/subscriptions services/payouts services/vault services/tracking services/dashboard tools/emulators tools/e2e tools/stack tools/owner tools/bench tools/chaos; do
  npx tsc --noEmit -p "$p/tsconfig.json"
done
step "lint (module boundaries included)"
# The boundary rule reads nx's cached project graph and silently skips itself without one
# (a clean clone has none): compute it first.
NX_DAEMON=false npx nx show projects >/dev/null
NX_DAEMON=false npx eslint libs services tools
step "SDK package (@orquestra/node: publint, npm pack, installed into CommonJS and ES-module projects, tsc nodenext, run)"
bash tools/sdk/pack-check.sh --skip-build
step "CLI package (@orquestra/cli beside @orquestra/node: publint, npm pack, installed, orq run)"
bash tools/cli/pack-check.sh
step "Helm chart (helm lint --strict, helm template, rendered-manifest checks)"
bash tools/k8s/helm-check.sh
step "OpenAPI document (built from the code, Redocly lint: recommended-strict, redocly.yaml)"
bash tools/openapi/openapi.sh lint
step "unit and integration tests"
# On 2 cores jest runs the files in band: a handle a failed teardown left open would keep the run
# alive until CI's own limit, hiding the failure. --forceExit ends it with the failure reported,
# and `timeout` bounds each jest run (the suites take ~3 and ~6 minutes here).
timeout --foreground 25m npx jest -c jest.config.js --ci --forceExit
step "end-to-end tests (the payment page in Debian's Chromium)"
bash tools/setup/ensure-chromium.sh
timeout --foreground 35m npx jest -c tools/e2e/jest.config.js --ci --forceExit
step "nothing lost: RabbitMQ and notifications killed with SIGKILL while paying (private broker node)"
bash tools/e2e/run-nothing-lost.sh --ci
step "two replicas of every service: failover, refund race, expiry, webhooks, subscription cycles, every replica serves (its own stack)"
bash tools/e2e/run-replicas.sh --ci --forceExit
step "chaos, short: a payments and a providers replica killed with SIGKILL under SDK load (no double charge, no lost event)"
timeout --foreground 10m bash tools/chaos/chaos.sh --short --skip-build
step "fuzzing the running stack's OpenAPI (Schemathesis: no 5xx, responses match the document)"
bash tools/fuzz/fuzz.sh
step "all tests passed"
