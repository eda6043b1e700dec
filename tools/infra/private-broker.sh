# Sourced (not run): a private RabbitMQ node of Debian's rabbitmq-server on 127.0.0.1, for suites
# that kill and restart the broker (tools/e2e/run-nothing-lost.sh, tools/chaos/chaos.sh) without
# disturbing the shared node of tools/infra/infra.sh.
#
#   private_broker_prepare <name> <port offset> <dir>
#     sets PORT (5672 + offset), NODE, DIR, BIN, RMQ_ENV (the node's environment) and
#     BROKER_START (a script that starts the node in the background, for the suite to restart it)
#   private_broker_start <log label>   starts the node and waits until it answers (120 s at most)
#   private_broker_stop                stops it

private_broker_prepare() {
  local name="$1" offset="$2"
  DIR="$3"
  PORT=$((5672 + offset))
  local dist=$((PORT + 20000))
  NODE="${name}_${offset}@localhost"
  BIN=/usr/lib/rabbitmq/bin
  mkdir -p "$DIR/home" "$DIR/mnesia" "$DIR/log"
  : >"$DIR/rabbitmq-env.conf"
  printf '[].\n' >"$DIR/enabled_plugins"
  printf '%s\n' 'loopback_users.guest = true' 'log.console = false' >"$DIR/rabbitmq.conf"
  RMQ_ENV=(
    HOME="$DIR/home" RABBITMQ_NODENAME="$NODE" RABBITMQ_NODE_IP_ADDRESS=127.0.0.1 RABBITMQ_NODE_PORT="$PORT"
    RABBITMQ_DIST_PORT="$dist" RABBITMQ_MNESIA_BASE="$DIR/mnesia" RABBITMQ_LOG_BASE="$DIR/log"
    RABBITMQ_PID_FILE="$DIR/beam.pid" RABBITMQ_CONFIG_FILE="$DIR/rabbitmq.conf"
    RABBITMQ_ENABLED_PLUGINS_FILE="$DIR/enabled_plugins" RABBITMQ_CONF_ENV_FILE="$DIR/rabbitmq-env.conf"
    RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS="-kernel inet_dist_use_interface {127,0,0,1}" ERL_EPMD_ADDRESS=127.0.0.1
  )
  BROKER_START="$DIR/start.sh"
  {
    echo '#!/usr/bin/env bash'
    printf 'setsid nohup env'
    printf ' %q' "${RMQ_ENV[@]}" "$BIN/rabbitmq-server"
    printf ' >>%q 2>&1 </dev/null &\n' "$DIR/startup.log"
  } >"$BROKER_START"
  chmod +x "$BROKER_START"
}

private_broker_start() {
  local label="$1" ready=0
  echo "[$label] starting the private RabbitMQ node $NODE on 127.0.0.1:$PORT"
  bash "$BROKER_START"
  for _ in $(seq 1 120); do
    if env "${RMQ_ENV[@]}" "$BIN/rabbitmqctl" -n "$NODE" await_startup >/dev/null 2>&1; then ready=1; break; fi
    sleep 1
  done
  ((ready)) || { echo "[$label] RabbitMQ node $NODE did not start within 120 s; see $DIR/startup.log" >&2; return 1; }
}

private_broker_stop() {
  env "${RMQ_ENV[@]}" "$BIN/rabbitmqctl" -n "$NODE" stop >/dev/null 2>&1 || true
}
