#!/usr/bin/env bash
# Installs npm dependencies exactly as locked, unless node_modules already matches the lock file.
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v node >/dev/null || { echo "Node.js 20.19+ is required (node not found)." >&2; exit 1; }
command -v npm >/dev/null || { echo "npm is required (npm not found)." >&2; exit 1; }
stamp=node_modules/.orquestra-lock-hash
want="$(sha256sum package-lock.json | cut -d' ' -f1)"
if [[ -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then
  exit 0
fi
echo "Installing npm dependencies (npm ci)…"
npm ci --no-audit --no-fund
echo "$want" > "$stamp"
