#!/usr/bin/env bash
# The SDK as a merchant gets it: builds @orquestra/node (libs/sdk, tsup), lints the package
# (publint), packs it with `npm pack`, installs the tarball into two scratch projects in a temp
# directory (one CommonJS, one "type": "module"), compiles a smoke program and the example Pix bot
# there with tsc (strict, module nodenext) against the installed package only, and runs them. The
# ES module project compiles with skipLibCheck off, so the shipped declarations are type-checked
# too (index.d.mts and index.d.ts are the same text; checking @types/node twice would cost ~10 s).
#
# With ORQUESTRA_BASE_URL and ORQUESTRA_TEST_KEY set (a running stack: `npm start` writes
# stack.env; the SDK e2e suite passes its own), the example bot also runs for real from both
# builds: it creates a Pix, this script pays it in test mode (POST /v1/payments/{id}/simulate) once
# the bot has polled it, and the bot must end with "succeeded".
#
# Usage: bash tools/sdk/pack-check.sh [--skip-build]   (--skip-build reuses libs/sdk/dist)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
started=$(date +%s%N)
ms() { echo $(( ($(date +%s%N) - started) / 1000000 )); }
say() { echo "[sdk pack-check $(ms) ms] $*"; }

if [[ "${1:-}" != "--skip-build" ]]; then
  node_modules/.bin/tsup --config libs/sdk/tsup.config.ts --silent
  say "built libs/sdk/dist"
fi
node_modules/.bin/publint libs/sdk --strict
say "publint: no packaging problems"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/orquestra-sdk-pack.XXXXXX")"
if [[ "${SDK_PACK_KEEP:-}" != "1" ]]; then trap 'rm -rf "$WORK"' EXIT; fi
tarball="$(cd libs/sdk && npm pack --silent --pack-destination "$WORK")"
tarball="$WORK/$(basename "$tarball")"
listing="$(tar -tzf "$tarball" | sort)"
expected="$(printf '%s\n' package/LICENSE package/README.md package/dist/index.d.mts package/dist/index.d.ts package/dist/index.js package/dist/index.mjs package/package.json | sort)"
if [[ "$listing" != "$expected" ]]; then
  echo "unexpected tarball contents:"; diff <(echo "$expected") <(echo "$listing") || true; exit 1
fi
say "packed $(basename "$tarball") ($(( $(stat -c %s "$tarball") / 1024 )) KiB, $(echo "$listing" | wc -l) files)"

# A delivery signed by the platform's signer, the one the notifications service uses.
node_modules/.bin/esbuild libs/platform/src/webhooks/webhook-signature.ts --format=cjs --platform=node --log-level=error --outfile="$WORK/platform-signer.js"
export SMOKE_WEBHOOK_SECRET="whsec_pack_check_$RANDOM$RANDOM"
export SMOKE_WEBHOOK_BODY='{"id":"evt_smoke","object":"event","type":"payment.succeeded","created":1790000000,"data":{"object":{"id":"pay_smoke","description":"ação"}}}'
SMOKE_WEBHOOK_SIGNATURE="$(node -e 'const s=require(process.argv[1]); process.stdout.write(s.signWebhookPayload(process.env.SMOKE_WEBHOOK_BODY, ["whsec_old_one", process.env.SMOKE_WEBHOOK_SECRET]))' "$WORK/platform-signer.js")"
export SMOKE_WEBHOOK_SIGNATURE

# Pays the bot's Pix in test mode once it has polled it twice, then waits for the bot's verdict.
run_bot() {
  local project="$1" log="$WORK/$1-bot.log" id="" deadline=$(( $(date +%s) + 45 ))
  ( cd "$WORK/$project" && PIX_BOT_POLL_MS=200 exec node build/pix-bot.js ) >"$log" 2>&1 &
  local pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    if [[ -z "$id" ]]; then id="$(grep -oE 'Pagamento pay_[A-Za-z0-9]+ criado' "$log" | head -1 | cut -d' ' -f2 || true)"; fi
    if [[ -n "$id" && "$(grep -c ": pending" "$log" || true)" -ge 2 ]]; then
      curl -fsS -X POST -H "Authorization: Bearer $ORQUESTRA_TEST_KEY" "$ORQUESTRA_BASE_URL/v1/payments/$id/simulate" >/dev/null
      break
    fi
    if (( $(date +%s) > deadline )); then kill "$pid"; echo "the $project bot did not create and poll a payment in time:"; cat "$log"; exit 1; fi
    sleep 0.1
  done
  if ! wait "$pid"; then echo "the $project bot failed:"; cat "$log"; exit 1; fi
  grep -q "Pagamento $id: succeeded" "$log" && grep -q "Pago: entregue o pedido" "$log" || { echo "the $project bot did not see its payment succeed:"; cat "$log"; exit 1; }
  say "$project: the example bot created $id, polled it and delivered once it was paid"
}

TSC="$ROOT/node_modules/typescript/bin/tsc"
for project in commonjs module; do
  dir="$WORK/$project"
  mkdir -p "$dir/src"
  cat >"$dir/package.json" <<JSON
{ "name": "scratch-$project", "version": "1.0.0", "private": true, "type": "$project" }
JSON
  # The merchant's own tsconfig: nothing of the monorepo but @types/node (typeRoots).
  cat >"$dir/tsconfig.json" <<JSON
{
  "compilerOptions": {
    "target": "ES2022", "module": "nodenext", "moduleResolution": "nodenext", "strict": true,
    "noUncheckedIndexedAccess": true, "skipLibCheck": $( [[ $project == module ]] && echo false || echo true ),
    "outDir": "build", "rootDir": "src",
    "types": ["node"], "typeRoots": ["$ROOT/node_modules/@types"]
  },
  "include": ["src"]
}
JSON
  (cd "$dir" && npm install --offline --silent --no-audit --no-fund --ignore-scripts --no-package-lock "$tarball")
  cp tools/sdk/smoke.ts "$dir/src/smoke.ts"
  sed "s#from '../src'#from '@orquestra/node'#" libs/sdk/examples/pix-bot.ts >"$dir/src/pix-bot.ts"
  grep -q "from '@orquestra/node'" "$dir/src/pix-bot.ts"
  (cd "$dir" && node "$TSC" -p tsconfig.json)
  if [[ "$project" == module ]]; then
    resolved="$(cd "$dir" && node --input-type=module -e "console.log(import.meta.resolve('@orquestra/node'))")"
    [[ "$resolved" == */node_modules/@orquestra/node/dist/index.mjs ]] || { echo "ESM resolved $resolved"; exit 1; }
  else
    resolved="$(cd "$dir" && node -e "console.log(require.resolve('@orquestra/node'))")"
    [[ "$resolved" == */node_modules/@orquestra/node/dist/index.js ]] || { echo "CJS resolved $resolved"; exit 1; }
  fi
  out="$(cd "$dir" && node build/smoke.js)"
  [[ "$out" == *'"ok":true'* && "$out" == *"\"module\":\"$( [[ $project == module ]] && echo esm || echo commonjs )\""* ]] || { echo "smoke ($project): $out"; exit 1; }
  say "$project: installed, compiled with tsc (nodenext, strict), loads ${resolved#"$dir/"}; smoke $out"
  if [[ -n "${ORQUESTRA_BASE_URL:-}" && -n "${ORQUESTRA_TEST_KEY:-}" ]]; then
    run_bot "$project"
  fi
done
if [[ -z "${ORQUESTRA_BASE_URL:-}" || -z "${ORQUESTRA_TEST_KEY:-}" ]]; then
  say "no stack (ORQUESTRA_BASE_URL/ORQUESTRA_TEST_KEY unset): the example bot was compiled, not run (the SDK e2e suite runs it)"
fi
say "ok"
