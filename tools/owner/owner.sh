#!/usr/bin/env bash
# `npm run owner -- <command> …`: builds the owner command (a second or less) and runs it against the
# accounts service at ACCOUNTS_GRPC_ADDR (default: the `npm start` stack's, 127.0.0.1:50051).
# Usage and examples: docs/owner.md.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
# The contracts are generated from proto/ by the build; a fresh clone that never built has none yet.
[[ -d libs/contracts/src/generated ]] || bash tools/proto/generate.sh >&2
node tools/build/build-tool.mjs tools/owner/src/main.ts dist/tools/owner/main.js >/dev/null
exec node --enable-source-maps dist/tools/owner/main.js "$@"
