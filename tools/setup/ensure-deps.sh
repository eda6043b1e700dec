#!/usr/bin/env bash
# Installs npm dependencies exactly as locked, unless node_modules already matches the lock file.
set -euo pipefail
cd "$(dirname "$0")/../.."
# The project's Node.js LTS first on PATH (provisioned into .local/node when needed): npm install
# and the packages' install scripts run on it.
source tools/setup/node-env.sh
command -v node >/dev/null || { echo "Node.js $(cat tools/setup/node-version) is required (node not found)." >&2; exit 1; }
command -v npm >/dev/null || { echo "npm is required (npm not found)." >&2; exit 1; }
stamp=node_modules/.orquestra-lock-hash
want="$(sha256sum package-lock.json | cut -d' ' -f1)"
if [[ -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then
  exit 0
fi
echo "Installing npm dependencies from package-lock.json…"
# Not `npm ci`: npm 11 leaves other platforms' optional packages (esbuild, swc, buf binaries) out
# of the lock file on this machine, and `npm ci` then calls the lock out of sync. `npm install`
# installs exactly the locked versions; the check below fails if it had to change the lock.
npm install --no-audit --no-fund
if [[ "$(sha256sum package-lock.json | cut -d' ' -f1)" != "$want" ]]; then
  echo "package-lock.json changed during install: it is out of sync with package.json. Commit an updated lock file." >&2
  exit 1
fi
echo "$want" > "$stamp"
