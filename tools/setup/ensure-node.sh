#!/usr/bin/env bash
# Makes the project's Node.js LTS (tools/setup/node-version: Node 24) available. The `node` on PATH
# is used when its major version matches; otherwise that exact version is provisioned once into
# .local/node (git-ignored) from the npm registry, which carries the official Node.js binaries as
# the packages node-<os>-<arch> (a tarball with bin/node), so no download site other than the
# registry is needed. Prints the directory to put first on PATH (empty: the PATH's node is fine).
# Source tools/setup/node-env.sh instead to get PATH set.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
WANT="$(tr -d '[:space:]' <"$ROOT/tools/setup/node-version")"
MAJOR="${WANT%%.*}"
DIR="$ROOT/.local/node"

log() { printf '[node] %s\n' "$*" >&2; }

if command -v node >/dev/null && [[ "$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null)" == "$MAJOR" ]]; then
  exit 0
fi
if [[ -x "$DIR/bin/node" && "$("$DIR/bin/node" --version 2>/dev/null)" == "v$WANT" ]]; then
  echo "$DIR/bin"
  exit 0
fi

case "$(uname -s)" in
  Linux) os=linux ;;
  Darwin) os=darwin ;;
  *) log "no Node.js $MAJOR on PATH and no registry package for $(uname -s): install Node.js $WANT"; exit 1 ;;
esac
case "$(uname -m)" in
  x86_64 | amd64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) log "no Node.js $MAJOR on PATH and no registry package for $(uname -m): install Node.js $WANT"; exit 1 ;;
esac
command -v npm >/dev/null || { log "npm is needed to fetch Node.js $WANT (node-$os-$arch) from the registry"; exit 1; }

log "provisioning Node.js $WANT into .local/node (npm package node-$os-$arch@$WANT)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack "node-$os-$arch@$WANT" --silent >/dev/null)
tar xzf "$tmp"/node-"$os"-"$arch"-"$WANT".tgz -C "$tmp" package/bin/node package/LICENSE
"$tmp/package/bin/node" --version | grep -qx "v$WANT" || { log "the package's bin/node is not v$WANT"; exit 1; }
rm -rf "$DIR"
mkdir -p "$DIR/bin"
mv "$tmp/package/bin/node" "$DIR/bin/node"
mv "$tmp/package/LICENSE" "$DIR/LICENSE"
log "Node.js $("$DIR/bin/node" --version) in $DIR/bin"
echo "$DIR/bin"
