#!/usr/bin/env bash
# `npm run bench [-- options]`: throughput, latency and memory of the platform on this machine.
# Provisions like `npm start` (dependencies, store + broker, certificates, build), bundles the
# benchmark and runs it: it starts a stack of its own (ports +3000, databases bench_<rand>_*),
# loads POST /v1/payments through the gateway with both Efí accounts up (8 and 64 connections,
# then paced at half the best rate), then with account A down, measures each process's cost per
# payment (CPU, store commands, broker messages) and GET /v1/payments latency at 10 000 and 100 000
# payments, prints the figures against issue 11's targets and writes them to
# .local/bench/<timestamp>.{json,md}. Never run in CI. See docs/performance.md.
#
# Options go to the benchmark (node dist/tools/bench/main.js --help), except these two, for
# repeated runs on a prepared checkout:
#   --skip-deps    do not run tools/setup/ensure-deps.sh   (env BENCH_SKIP_DEPS=1)
#   --skip-build   do not run tools/build/build-all.sh     (env BENCH_SKIP_BUILD=1)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
# Node.js 24 LTS (tools/setup/node-version) first on PATH: the benchmark's stack runs on it.
source tools/setup/node-env.sh

skip_deps="${BENCH_SKIP_DEPS:-0}"
skip_build="${BENCH_SKIP_BUILD:-0}"
args=()
for arg in "$@"; do
  case "$arg" in
    --skip-deps) skip_deps=1 ;;
    --skip-build) skip_build=1 ;;
    *) args+=("$arg") ;;
  esac
done

[[ "$skip_deps" == 1 ]] || bash tools/setup/ensure-deps.sh
# The benchmark's own store: mongo-java-server's memory backend on its own port (docs/performance.md
# compares it with the H2 backend `npm start` uses). The memory backend keeps every document on the
# JVM heap: 100 000 payments of the list-latency run take 1.3 GiB live (about 13 KiB each), so the
# default 1g heap runs out; 3g leaves room for the services' own documents.
export STORE_BACKEND="${STORE_BACKEND:-memory}" STORE_PORT="${STORE_PORT:-27019}" STORE_HEAP="${STORE_HEAP:-3g}"
bash tools/infra/infra.sh up
eval "$(bash tools/infra/infra.sh env)"
export MONGO_URL AMQP_URL
bash tools/infra/certs.sh >/dev/null
[[ "$skip_build" == 1 ]] || bash tools/build/build-all.sh
node tools/build/build-tool.mjs tools/bench/src/main.ts dist/tools/bench/main.js
exec node --enable-source-maps dist/tools/bench/main.js "${args[@]}"
