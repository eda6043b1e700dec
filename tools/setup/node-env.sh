# Sourced (not run) by the entry scripts (npm test, npm start, npm run bench, ensure-deps): puts the
# project's Node.js LTS first on PATH, provisioning it when the machine's node is another major
# version (tools/setup/ensure-node.sh). npm itself is a JavaScript program and then runs on it too.
__orq_node_bin="$(bash "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/ensure-node.sh")"
if [[ -n "$__orq_node_bin" ]]; then
  case ":$PATH:" in
    *":$__orq_node_bin:"*) ;;
    *) export PATH="$__orq_node_bin:$PATH" ;;
  esac
fi
unset __orq_node_bin
