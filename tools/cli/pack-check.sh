#!/usr/bin/env bash
# The CLI as a merchant gets it, beside the SDK: builds @orquestra/cli (libs/cli/build.mjs: the
# CLI's code, with @orquestra/node and commander as dependencies), lints the package (publint),
# packs it and the SDK (libs/sdk/dist, built by tools/build/build-all.sh) with `npm pack`, installs
# both tarballs into a scratch project (offline: commander comes from npm's cache) and runs the
# installed `orq`: its version, its help, and a command that goes through the installed SDK.
#
# Usage: bash tools/cli/pack-check.sh
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
say() { echo "[cli pack-check] $*"; }

[[ -f libs/sdk/dist/index.js ]] || { echo "libs/sdk/dist is missing: run tools/build/build-all.sh first"; exit 1; }
node libs/cli/build.mjs >/dev/null
node_modules/.bin/publint libs/cli --strict
say "built libs/cli/dist; publint: no packaging problems"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/orquestra-cli-pack.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
cli="$WORK/$(cd libs/cli && npm pack --silent --pack-destination "$WORK")"
sdk="$WORK/$(cd libs/sdk && npm pack --silent --pack-destination "$WORK")"
listing="$(tar -tzf "$cli" | sort | tr '\n' ' ')"
[[ "$listing" == "package/dist/main.js package/dist/main.js.map package/package.json " ]] || { echo "unexpected CLI tarball contents: $listing"; exit 1; }
# The SDK is a dependency, not bundled: the CLI has no HTTP client of its own.
if grep -q "class Transport" libs/cli/dist/main.js; then echo "the CLI bundle carries the SDK's code"; exit 1; fi
say "packed $(basename "$cli") and $(basename "$sdk")"

mkdir -p "$WORK/project"
cd "$WORK/project"
echo '{ "name": "scratch-cli", "version": "1.0.0", "private": true }' >package.json
npm install --offline --silent --no-audit --no-fund --ignore-scripts --no-package-lock "$sdk" "$cli"
orq="$WORK/project/node_modules/.bin/orq"
[[ "$("$orq" --version)" == "0.1.0" ]] || { echo "orq --version: $("$orq" --version)"; exit 1; }
"$orq" trigger --help | grep -q "payment.succeeded" || { echo "orq trigger --help lacks the events"; exit 1; }
# Nothing listens on port 1: the installed SDK's connection error comes back in one line, exit 1.
set +e
out="$(HOME="$WORK" XDG_CONFIG_HOME="$WORK" "$orq" payments list --api-key svc_test_pack_check --base-url http://127.0.0.1:1 2>&1)"
code=$?
set -e
[[ $code -eq 1 && "$out" == *"Não foi possível falar com a API"*"(connection_error)"* ]] || { echo "orq payments list (exit $code): $out"; exit 1; }
resolved="$(node -e "console.log(require.resolve('@orquestra/node', { paths: [require('path').dirname(require.resolve('@orquestra/cli/package.json'))] }))")"
[[ "$resolved" == */node_modules/@orquestra/node/dist/index.js ]] || { echo "the CLI resolves the SDK at $resolved"; exit 1; }
say "installed beside @orquestra/node: orq runs, uses ${resolved#"$WORK/project/"}"
say "ok"
