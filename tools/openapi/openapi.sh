#!/usr/bin/env bash
# The gateway's OpenAPI document, built from the code without a server (docs/api-reference.md):
#   openapi.sh write   writes docs/openapi.json, the published copy (commit it; a jest spec fails when it is stale)
#   openapi.sh lint    writes dist/openapi/openapi.json and lints it with Redocly (redocly.yaml, .redocly.lint-ignore.yaml)
set -euo pipefail
cd "$(dirname "$0")/../.."
node tools/build/build-tool.mjs services/gateway/src/openapi/write-document.ts dist/tools/openapi/write-document.js >/dev/null
case "${1:-}" in
  write) node dist/tools/openapi/write-document.js docs/openapi.json ;;
  lint)
    node dist/tools/openapi/write-document.js dist/openapi/openapi.json
    # No usage report to Redocly's servers, no update check: CI has no internet, and lint is local.
    REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true npx --no-install redocly lint dist/openapi/openapi.json --config redocly.yaml
    ;;
  *) echo "usage: tools/openapi/openapi.sh write|lint" >&2; exit 2 ;;
esac
