#!/usr/bin/env bash
# Checks the Helm chart in k8s/orquestra without Docker or a cluster:
#   1. helm lint --strict, with the default values and with tools/k8s/values-all-options.yaml;
#   2. helm template with the same two value sets, and with metrics off and with the gateway on a
#      LoadBalancer Service (any template error fails);
#   3. sanity checks on the rendered manifests (tools/k8s/check-rendered.mjs): every Deployment
#      hardened, probes present, NetworkPolicy graph as documented, and so on.
# Helm is taken from PATH, else from .local/bin/helm (git-ignored), else built there from source
# with the Go toolchain (`go install helm.sh/helm/v3/cmd/helm@$HELM_VERSION`, falling back to a
# `go mod download` of the module when the proxy refuses the version list). The first build
# compiles a few hundred packages (minutes on two cores); later runs reuse the binary.
# Usage: bash tools/k8s/helm-check.sh            (HELM=/path/to/helm to use a given binary)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
HELM_VERSION="v3.19.2"
HELM_MODULE="helm.sh/helm/v3"
# Kubernetes version the chart is rendered and linted against (its Chart.yaml needs >= 1.27:
# native gRPC probes are GA there).
KUBE_VERSION="${KUBE_VERSION:-1.31.0}"
LOCAL_BIN="$ROOT/.local/bin"
CHART="$ROOT/k8s/orquestra"
ALL_OPTIONS="$ROOT/tools/k8s/values-all-options.yaml"

log() { printf '[helm-check] %s\n' "$*" >&2; }
die() { printf '[helm-check] ERROR: %s\n' "$*" >&2; exit 1; }

helm_ok() {
  [[ -x "$1" ]] && "$1" version --template '{{.Version}}' 2>/dev/null | grep -qx "$HELM_VERSION"
}

# Helm's Makefile stamps its version and the Kubernetes version it was built against (used as
# the default `.Capabilities.KubeVersion`); a bare `go build` would leave v1.20 there.
helm_ldflags() {
  local src="$1" k8s major minor
  k8s="$(sed -n 's/^[[:space:]]*k8s.io\/client-go v0\.\([0-9]*\)\..*/\1/p' "$src/go.mod" | head -n1)"
  [[ -n "$k8s" ]] || k8s=34
  major=1 minor="$k8s"
  printf '%s' "-s -w -X $HELM_MODULE/internal/version.version=$HELM_VERSION -X $HELM_MODULE/internal/version.gitTreeState=clean \
-X $HELM_MODULE/pkg/lint/rules.k8sVersionMajor=$major -X $HELM_MODULE/pkg/lint/rules.k8sVersionMinor=$minor \
-X $HELM_MODULE/pkg/chartutil.k8sVersionMajor=$major -X $HELM_MODULE/pkg/chartutil.k8sVersionMinor=$minor"
}

build_helm() {
  local out="$1" work buildlog modcache src
  command -v go >/dev/null || die "helm is missing and so is the Go toolchain to build it (go >= 1.24); install either"
  mkdir -p "$(dirname "$out")" "$ROOT/.local/build"
  work="$(mktemp -d "$ROOT/.local/build/helm.XXXXXX")"
  buildlog="$ROOT/.local/build/helm-build.log"
  : >"$buildlog"
  log "building helm $HELM_VERSION into $out from the Go module proxy (first time only; log: $buildlog)"
  # The source is needed anyway for the ldflags (client-go version), so download it first. A plain
  # `go install …@version` needs the proxy's version list, which some networks answer with a 403.
  (cd "$work" && go mod init helmbuild && go mod download -json "$HELM_MODULE@$HELM_VERSION") >"$work/download.json" 2>>"$buildlog" ||
    die "could not download $HELM_MODULE@$HELM_VERSION from the Go module proxy; see $buildlog"
  modcache="$(sed -n 's/^[[:space:]]*"Dir": "\(.*\)",*$/\1/p' "$work/download.json")"
  [[ -d "$modcache" ]] || die "downloaded helm module source not found (looked at '$modcache'); see $work/download.json"
  if GOBIN="$work/gobin" GOFLAGS=-buildvcs=false go install -trimpath -ldflags "$(helm_ldflags "$modcache")" \
    "$HELM_MODULE/cmd/helm@$HELM_VERSION" >>"$buildlog" 2>&1 && helm_ok "$work/gobin/helm"; then
    mv "$work/gobin/helm" "$out"
  else
    log "'go install $HELM_MODULE/cmd/helm@$HELM_VERSION' failed ($(grep -m1 -oE '403 Forbidden|[Ee]rror.*|cannot .*' "$buildlog" || echo "see $buildlog")); building from the downloaded module"
    src="$work/src"
    cp -R "$modcache" "$src"
    chmod -R u+w "$src"
    (cd "$src" && go build -buildvcs=false -trimpath -ldflags "$(helm_ldflags "$src")" -o "$out.tmp" ./cmd/helm) >>"$buildlog" 2>&1 ||
      die "building helm from source failed; see $buildlog (sources kept in $src)"
    helm_ok "$out.tmp" || die "the freshly built $out.tmp does not report $HELM_VERSION"
    mv "$out.tmp" "$out"
  fi
  rm -rf "$work"
  rmdir "$ROOT/.local/build" 2>/dev/null || true
  log "built $out"
}

find_helm() {
  if [[ -n "${HELM:-}" ]]; then
    [[ -x "$HELM" ]] || die "HELM=$HELM is not executable"
    printf '%s' "$HELM"
    return
  fi
  if command -v helm >/dev/null && helm version --template '{{.Version}}' 2>/dev/null | grep -q '^v3\.'; then
    command -v helm
    return
  fi
  helm_ok "$LOCAL_BIN/helm" || build_helm "$LOCAL_BIN/helm"
  printf '%s' "$LOCAL_BIN/helm"
}

started=$SECONDS
helm="$(find_helm)"
log "using $helm ($("$helm" version --template '{{.Version}}'))"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

# Anything helm prints as WARNING (e.g. a deprecated API, a missing values key) fails the check too.
run() {
  local name="$1"
  shift
  if ! "$@" >"$out/$name.out" 2>"$out/$name.err"; then
    cat "$out/$name.out" "$out/$name.err" >&2
    die "$name failed"
  fi
  if grep -qi 'warning' "$out/$name.err"; then
    cat "$out/$name.err" >&2
    die "$name printed warnings"
  fi
}

run lint-default "$helm" lint --strict --kube-version "$KUBE_VERSION" "$CHART"
run lint-all "$helm" lint --strict --kube-version "$KUBE_VERSION" -f "$ALL_OPTIONS" "$CHART"
run template-default "$helm" template orq "$CHART" --namespace orquestra --kube-version "$KUBE_VERSION"
cp "$out/template-default.out" "$out/default.yaml"
run template-all "$helm" template orq "$CHART" --namespace orquestra --kube-version "$KUBE_VERSION" \
  --api-versions monitoring.coreos.com/v1 -f "$ALL_OPTIONS"
cp "$out/template-all.out" "$out/all.yaml"
# Two variants the checks need besides: metrics switched off, and a gateway published by a
# LoadBalancer (its metrics port must then stay on a ClusterIP Service), both with ServiceMonitors.
run template-metrics-off "$helm" template orq "$CHART" --namespace orquestra --kube-version "$KUBE_VERSION" \
  --api-versions monitoring.coreos.com/v1 --set metrics.enabled=false --set metrics.serviceMonitor.enabled=true
cp "$out/template-metrics-off.out" "$out/metrics-off.yaml"
run template-gateway-lb "$helm" template orq "$CHART" --namespace orquestra --kube-version "$KUBE_VERSION" \
  --api-versions monitoring.coreos.com/v1 --set gateway.service.type=LoadBalancer --set metrics.serviceMonitor.enabled=true
cp "$out/template-gateway-lb.out" "$out/gateway-lb.yaml"
# Settings the chart must refuse, each with a clear message.
if "$helm" template orq "$CHART" --kube-version "$KUBE_VERSION" --set 'otel.env.NOT_OTEL=x' >/dev/null 2>"$out/bad.err"; then
  die "a non-OTEL_ variable under otel.env was accepted"
fi
grep -q 'OTEL_' "$out/bad.err" || { cat "$out/bad.err" >&2; die "the otel.env refusal does not name the rule"; }
if "$helm" template orq "$CHART" --kube-version "$KUBE_VERSION" --set metrics.port=8080 >/dev/null 2>"$out/bad.err"; then
  die "metrics.port equal to the gateway's HTTP port was accepted"
fi
grep -q 'metrics.port' "$out/bad.err" || { cat "$out/bad.err" >&2; die "the metrics.port refusal does not name the setting"; }

node "$ROOT/tools/k8s/check-rendered.mjs" "$out/default.yaml" "$out/all.yaml" "$out/metrics-off.yaml" "$out/gateway-lb.yaml"
log "chart OK in $((SECONDS - started)) s"
