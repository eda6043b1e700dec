#!/usr/bin/env bash
# The one command that runs Orquestra locally on a fresh machine:
#   npm start                 installs, provisions MongoDB-wire store + RabbitMQ, builds, starts every
#                             service and the provider emulator in the foreground (Ctrl-C stops all),
#                             seeds a test merchant and prints keys (also written to ./stack.env).
#   npm start -- --background same, but returns once ready; logs under .local/stack/logs
#   npm run stop              stops a background stack (the store and broker keep running;
#                             `bash tools/infra/infra.sh down` stops those too).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
# Node.js 24 LTS (tools/setup/node-version) first on PATH: the stack runs on it.
source tools/setup/node-env.sh
STATE="$ROOT/.local/stack"
PIDFILE="$STATE/stack.pid"
mkdir -p "$STATE"

stop_background() {
  if [[ -f "$PIDFILE" ]] && kill -0 "$(cat "$PIDFILE")" 2>/dev/null; then
    local pid; pid="$(cat "$PIDFILE")"
    echo "Stopping Orquestra (pid $pid)…"
    kill -TERM "$pid"
    for _ in $(seq 1 150); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" || true
    rm -f "$PIDFILE"
    echo "Stopped."
  else
    echo "No background Orquestra stack is running."
    rm -f "$PIDFILE"
  fi
}

case "${1:-}" in
  --stop) stop_background; exit 0 ;;
  --background|"") ;;
  *) echo "usage: npm start [-- --background] | npm run stop" >&2; exit 2 ;;
esac

if [[ -f "$PIDFILE" ]] && kill -0 "$(cat "$PIDFILE")" 2>/dev/null; then
  echo "Orquestra is already running in the background (pid $(cat "$PIDFILE")). Run 'npm run stop' first." >&2
  exit 1
fi

bash tools/setup/ensure-deps.sh
bash tools/infra/infra.sh up
eval "$(bash tools/infra/infra.sh env)"
export MONGO_URL AMQP_URL
bash tools/infra/certs.sh >/dev/null
bash tools/build/build-all.sh

if [[ "${1:-}" == "--background" ]]; then
  nohup node --enable-source-maps dist/tools/stack/main.js > "$STATE/stack.out" 2>&1 &
  echo $! > "$PIDFILE"
  for _ in $(seq 1 900); do
    if grep -q "Press Ctrl-C to stop" "$STATE/stack.out" 2>/dev/null; then
      sed '/Press Ctrl-C to stop/d' "$STATE/stack.out"
      echo "Running in the background. Stop it with: npm run stop"
      exit 0
    fi
    if ! kill -0 "$(cat "$PIDFILE")" 2>/dev/null; then cat "$STATE/stack.out"; rm -f "$PIDFILE"; exit 1; fi
    sleep 0.2
  done
  echo "Orquestra did not become ready; see $STATE/stack.out" >&2
  exit 1
fi

exec node --enable-source-maps dist/tools/stack/main.js
