#!/usr/bin/env bash
# Builds everything the stack runs: contracts from proto, every service, the owner's dashboard
# (static files the gateway serves), the emulators and the stack launcher, into dist/; and the SDK
# package @orquestra/node (ESM + CJS + .d.ts) into libs/sdk/dist.
set -euo pipefail
cd "$(dirname "$0")/../.."
bash tools/proto/generate.sh
node tools/build/build-service.mjs accounts vault providers routing notifications subscriptions payouts payments tracking gateway
node tools/build/build-dashboard.mjs
node tools/build/build-tool.mjs tools/stack/src/main.ts dist/tools/stack/main.js
node tools/build/build-tool.mjs tools/stack/src/test-stack-main.ts dist/tools/stack/test-stack-main.js
node tools/emulators/build.mjs
# The orq CLI (libs/cli) with the SDK's source bundled in, for the stack and the e2e suite.
node tools/build/build-tool.mjs libs/cli/src/main.ts dist/libs/cli/main.js
node_modules/.bin/tsup --config libs/sdk/tsup.config.ts --silent
